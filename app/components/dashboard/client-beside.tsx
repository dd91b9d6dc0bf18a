import { clientNameBeside } from "~/domain/clients";

/** A customer's client beside their name (staff lists), when it is not named after them: only its name counts. */
export function ClientBeside({ person, client }: { person: string; client: { name: string } | null | undefined }) {
  const name = clientNameBeside(person, client);
  return name ? (
    <span data-testid="row-client" className="font-normal text-slate-600">
      {" "}
      · <span className="sr-only">client </span>
      {name}
    </span>
  ) : null;
}
