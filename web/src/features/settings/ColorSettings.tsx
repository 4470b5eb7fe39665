import type { LevelColors } from '@skald/contracts/api';
import { Button, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useToast } from '../../app/toast.tsx';
import { LevelContrastNote } from '../logs/LevelContrastNote.tsx';
import { changedColors, pickerValue, SETTINGS_TEXT, useSaveColorsMutation } from './settingsApi.ts';

type ColorField = 'bg_color' | 'text_color';

/**
 * Per level a background and a text colour picker (docs/spec/part-2.txt section 2); Save asks for confirmation in a dialog and
 * sends only the levels that changed. The contrast note beside the pickers names pairs below WCAG AA
 * (docs/DECISIONS.md, Web app).
 */
export function ColorSettings({ serverId, levels, colors }: { serverId: string; levels: readonly (keyof LevelColors)[]; colors: LevelColors }) {
  const toast = useToast();
  const [edited, setEdited] = useState<LevelColors>(colors);
  const [confirming, setConfirming] = useState(false);
  const [save, saving] = useSaveColorsMutation();
  // A refetch (after saving, or another admin's change) shows the server's values.
  useEffect(() => setEdited(colors), [colors]);

  const changes = changedColors(colors, edited);
  const dirty = Object.keys(changes).length > 0;

  const setColor = (level: keyof LevelColors, field: ColorField, value: string) => setEdited((prev) => ({ ...prev, [level]: { ...prev[level], [field]: value } }));

  const confirm = async () => {
    try {
      await save({ serverId, colors: changes }).unwrap();
      setConfirming(false);
      toast.success('Colours saved.');
    } catch {
      setConfirming(false);
      toast.error(SETTINGS_TEXT.saveFailed);
    }
  };

  return (
    <section aria-labelledby="colors-heading" className="settings-section">
      <h2 id="colors-heading" className="section-title">
        Colour settings
      </h2>
      <div className="color-grid">
        {levels.map((level) => (
          <fieldset key={level} className="color-row" data-testid={`colors-${level}`}>
            <legend className="color-level" style={{ background: edited[level].bg_color, color: edited[level].text_color }}>
              {level.toUpperCase()}
            </legend>
            <label className="color-field">
              <input type="color" value={pickerValue(edited[level].bg_color)} onChange={(e) => setColor(level, 'bg_color', e.target.value)} aria-label={`${level} background colour`} />
              Background
            </label>
            <label className="color-field">
              <input type="color" value={pickerValue(edited[level].text_color)} onChange={(e) => setColor(level, 'text_color', e.target.value)} aria-label={`${level} text colour`} />
              Text
            </label>
          </fieldset>
        ))}
      </div>
      <LevelContrastNote levels={levels} colors={edited} />
      <Button type="primary" disabled={!dirty} onClick={() => setConfirming(true)}>
        Save colours
      </Button>
      <Modal
        open={confirming}
        title="Save colours?"
        okText="Save"
        onOk={() => void confirm()}
        confirmLoading={saving.isLoading}
        onCancel={() => setConfirming(false)}
        destroyOnHidden
      >
        <p>The new colours apply to every member's log views of this server.</p>
      </Modal>
    </section>
  );
}
