import type { PlayerDetail } from '@skald/contracts/api';
import { Button, Input, Modal } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../app/errors.ts';
import { useToast } from '../../app/toast.tsx';
import { Panel } from '../common/Panel.tsx';
import { ERASE_CONFIRMATION, erasedText, PLAYERS_TEXT, useErasePlayerMutation } from './playersApi.ts';

/**
 * The owner's erasure of a player (a player's right to erasure): every log and photo log mentioning one of
 * its identifiers goes, after the owner types ERASE (docs/PLAYERS.md, "Web"). The server checks the role
 * too; this section is only shown to the owner.
 */
export function ErasePlayerSection({ serverId, player }: { serverId: string; player: PlayerDetail }) {
  const toast = useToast();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [erase, erasing] = useErasePlayerMutation();
  const name = player.name ?? PLAYERS_TEXT.unnamed;
  const stored = player.logCount + player.photoCount;

  const close = () => {
    setConfirming(false);
    setTyped('');
  };
  const confirm = async () => {
    if (typed !== ERASE_CONFIRMATION) return;
    try {
      const { erased } = await erase({ serverId, playerId: player.id }).unwrap();
      close();
      toast.success(erasedText(erased));
      navigate('/players', { replace: true });
    } catch (err) {
      toast.error(errorText(err, PLAYERS_TEXT.eraseFailed));
    }
  };

  return (
    <Panel>
      <section aria-labelledby="erase-heading" className="settings-section">
        <h2 id="erase-heading" className="section-title">
          Erase player
        </h2>
        <p>
          Deletes every log and photo log that mentions one of this player&apos;s identifiers ({stored} stored now), with the player&apos;s names and identifiers. Other players
          named in those logs lose them too. This cannot be undone.
        </p>
        <Button className="webhook-danger" onClick={() => setConfirming(true)}>
          Erase player
        </Button>
        <Modal
          open={confirming}
          title={`Erase ${name}?`}
          okText="Erase"
          okButtonProps={{ className: 'erase-confirm', disabled: typed !== ERASE_CONFIRMATION }}
          confirmLoading={erasing.isLoading}
          onOk={() => void confirm()}
          onCancel={close}
          destroyOnHidden
        >
          <p>
            Every log and photo log mentioning {name} ({stored} stored now) will be deleted, photos included. This cannot be undone.
          </p>
          <label className="field-label" htmlFor="erase-confirmation">
            Type {ERASE_CONFIRMATION} to confirm
          </label>
          <Input id="erase-confirmation" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" onPressEnter={() => void confirm()} />
        </Modal>
      </section>
    </Panel>
  );
}
