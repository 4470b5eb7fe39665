import { useState } from 'react';
import { readStored, STORAGE_KEYS, writeStored } from '../../app/storage.ts';

export type LogDisplay = 'cards' | 'table';

/** Cards (the spec's list) unless this browser chose the dense table. */
export function storedLogDisplay(): LogDisplay {
  return readStored(STORAGE_KEYS.logDisplay) === 'table' ? 'table' : 'cards';
}

/** /logs as cards or as the dense table, remembered by this browser (not part of a shared link). */
export function useLogDisplay(): [LogDisplay, (next: LogDisplay) => void] {
  const [display, setDisplay] = useState<LogDisplay>(storedLogDisplay);
  return [
    display,
    (next) => {
      writeStored(STORAGE_KEYS.logDisplay, next);
      setDisplay(next);
    },
  ];
}
