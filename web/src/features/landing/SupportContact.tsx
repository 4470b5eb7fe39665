import { Link } from 'react-router';
import { usePublicConfigQuery } from './siteApi.ts';

/**
 * The support address of this installation (SUPPORT_EMAIL, docs/DECISIONS.md "Public pages"), or the
 * contact form when none is configured or it cannot be loaded.
 */
export function SupportContact() {
  const { data } = usePublicConfigQuery(undefined);
  const email = data?.supportEmail ?? null;
  if (email !== null) {
    return (
      <a href={`mailto:${email}`} data-testid="support-email">
        {email}
      </a>
    );
  }
  return <Link to="/contact">our contact form</Link>;
}
