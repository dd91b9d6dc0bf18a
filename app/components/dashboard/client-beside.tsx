import { clientNameBeside, type ClientRef } from "~/domain/clients";

/** A customer's client beside their name (staff lists), when it is not named after them. */
export function ClientBeside({ person, client }: { person: string; client: ClientRef | null | undefined }) {
  const name = clientNameBeside(person, client);
  return name ? (
    <span data-testid="row-client" className="font-normal text-slate-600">
      {" "}
      · <span className="sr-only">client </span>
      {name}
    </span>
  ) : null;
}
