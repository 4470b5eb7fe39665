import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { ApiLog } from '@skald/contracts/api';
import { Button } from 'antd';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { resolveApiUrl } from '../../app/api.ts';

/** Wrap-around step through the photos on screen (docs/spec/part-1.txt section 4 "Photo viewer"). */
export function wrapIndex(index: number, count: number, delta: number): number {
  if (count <= 0) return 0;
  return (((index + delta) % count) + count) % count;
}

interface Props {
  photos: readonly ApiLog[];
  index: number;
  onIndex(next: number): void;
  onClose(): void;
}

// Full-screen viewer: previous, next and close buttons; keyboard Left, Right and Escape.
export function PhotoViewer({ photos, index, onIndex, onClose }: Props) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const photo = photos[index];

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab') {
        // aria-modal: Tab and Shift+Tab cycle through the viewer's buttons, never the page behind it.
        const buttons = [...(dialog.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])];
        if (buttons.length === 0) return;
        const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
        const next = at === -1 ? 0 : wrapIndex(at, buttons.length, event.shiftKey ? -1 : 1);
        buttons[next]?.focus();
        event.preventDefault();
        return;
      }
      if (event.key === 'ArrowLeft') onIndex(wrapIndex(index, photos.length, -1));
      else if (event.key === 'ArrowRight') onIndex(wrapIndex(index, photos.length, 1));
      else if (event.key === 'Escape') onClose();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, photos.length, onIndex, onClose]);

  useEffect(() => {
    // Keyboard users land in the dialog; focus returns to the page when it closes.
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    return () => previous?.focus();
  }, []);

  if (!photo) return null;
  return createPortal(
    <div ref={dialog} className="photo-viewer" role="dialog" aria-modal="true" aria-label="Photo viewer">
      <img src={resolveApiUrl(photo.image_path ?? '')} alt={photo.message} className="photo-viewer-img" />
      <p className="photo-viewer-caption">
        {index + 1} / {photos.length} — {photo.message}
      </p>
      <Button className="viewer-prev" shape="circle" size="large" aria-label="Previous photo" icon={<LeftOutlined />} onClick={() => onIndex(wrapIndex(index, photos.length, -1))} />
      <Button className="viewer-next" shape="circle" size="large" aria-label="Next photo" icon={<RightOutlined />} onClick={() => onIndex(wrapIndex(index, photos.length, 1))} />
      <Button ref={closeButton} className="viewer-close" shape="circle" size="large" aria-label="Close viewer" icon={<CloseOutlined />} onClick={onClose} />
    </div>,
    document.body,
  );
}
