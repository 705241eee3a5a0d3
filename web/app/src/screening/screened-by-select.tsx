import { useGetTeamMembersQuery } from '../team/team.api.js';

/** The Logs' and Alerts' "Screened by" filter: anyone, one member of the team, any API key, bulk jobs, monitoring. */
export function ScreenedBySelect({
  id,
  value,
  onChange,
  className,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  const team = useGetTeamMembersQuery();
  return (
    <select id={id} className={className} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Anyone</option>
      {(team.data?.members ?? []).map((member) => (
        <option key={member.user_id} value={`user:${member.user_id}`}>
          {member.full_name ? `${member.full_name} (${member.email})` : member.email}
        </option>
      ))}
      <option value="api_key">API keys</option>
      <option value="bulk_job">Bulk jobs</option>
      <option value="monitoring">Monitoring</option>
    </select>
  );
}
