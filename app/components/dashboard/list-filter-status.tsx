/**
 * Under a staff list's filter form: the filter's refusal (the list below is then unfiltered) and the
 * count of what the list holds, read out when a filter changes it.
 */
export function ListFilterStatus({ error, count }: { error: string | null; count: string }) {
  return (
    <>
      {error ? (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
      <p className="text-sm text-slate-600" aria-live="polite">
        {count}
      </p>
    </>
  );
}
