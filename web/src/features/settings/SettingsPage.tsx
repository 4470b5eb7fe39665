import { Alert, Divider, Spin } from 'antd';
import { Navigate } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { Panel } from '../common/Panel.tsx';
import { useLevelColorsQuery, useLevelTypesQuery } from '../logs/logsApi.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import { ApiKeySection } from './ApiKeySection.tsx';
import { ColorSettings } from './ColorSettings.tsx';
import { DeleteLogsSection } from './DeleteLogsSection.tsx';
import { ServerNameSection } from './ServerNameSection.tsx';
import { SETTINGS_TEXT } from './settingsApi.ts';

/**
 * Server settings (docs/spec/part-2.txt section 2): colours, API key, name and log cleanup of the current server, titled with
 * its name. Members with the role user never reach it: the route guard sends them to /dashboard
 * (screens.ts minRole, docs/spec/part-1.txt section 6).
 */
export default function SettingsPage() {
  const serverId = useAppSelector((s) => s.session.serverId);
  const me = useMeQuery(undefined);
  const colors = useLevelColorsQuery(serverId ?? '', { skip: !serverId });
  const levels = useLevelTypesQuery(serverId ?? '', { skip: !serverId });

  const server = me.data?.servers.find((s) => s.id === serverId);
  if (!serverId || (me.data && !server)) return <Navigate to="/dashboard" replace />;
  if (me.isError || colors.isError || levels.isError) return <Alert type="error" title={SETTINGS_TEXT.loadFailed} showIcon />;
  if (!server || !colors.data || !levels.data) {
    return (
      <div className="page-loading">
        <Spin /> <span>{SETTINGS_TEXT.loading}</span>
      </div>
    );
  }

  return (
    <Panel className="settings-page">
      <PageTitle>Server settings: {server.name}</PageTitle>
      <ColorSettings serverId={serverId} levels={levels.data} colors={colors.data} />
      <Divider />
      <ApiKeySection serverId={serverId} isOwner={server.role === 'owner'} />
      <Divider />
      <ServerNameSection serverId={serverId} name={server.name} />
      <Divider />
      <DeleteLogsSection serverId={serverId} />
    </Panel>
  );
}
