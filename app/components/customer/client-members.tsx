import { Section } from "~/components/customer/customer-sections";
import { CLIENT_ROLE_LABELS, type ClientMember } from "~/domain/clients";

/** Staff's view of a customer's client: its name and each member with their role (decision 295). */
export function ClientMembersSection({ client, idPrefix }: { client: { id: string; name: string; members: ClientMember[] }; idPrefix: string }) {
  return (
    <Section title={`Client: ${client.name}`} id={`${idPrefix}-client`}>
      <ul className="mt-2 space-y-1.5" aria-label={`Members of ${client.name}`}>
        {client.members.map((member) => (
          <li key={member.id} data-testid="staff-client-member">
            <span className="font-medium text-slate-950">{member.name}</span> · {CLIENT_ROLE_LABELS[member.role]}
            {member.joinedAt ? null : " · invited"}
            <span className="block break-all text-slate-600">{member.email}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
