import { ADMIN_PHOTO_PAGE_SIZE } from '@skald/contracts/api';
import { Alert, Spin } from 'antd';
import { useState } from 'react';
import { resolveApiUrl } from '../../../app/api.ts';
import { Pager } from '../../common/Pager.tsx';
import { useAdminServerPhotosQuery } from '../adminApi.ts';
import { ADMIN_TEXT, formatDateTime, pageCount } from '../adminText.ts';

/** Photo Logs tab (docs/spec/part-2.txt sections 2, 9): 12 per page from the server, Prev/Next and 'Page x / y'. */
export function PhotosTab({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useAdminServerPhotosQuery({ id, page, limit: ADMIN_PHOTO_PAGE_SIZE });
  if (isLoading) return <Spin />;
  if (isError || !data) return <Alert type="error" title={ADMIN_TEXT.photosError} showIcon />;
  if (data.pagination.total === 0) return <p className="muted">{ADMIN_TEXT.photosEmpty}</p>;
  const pages = pageCount(data.pagination.total, data.pagination.limit);
  return (
    <div>
      <div className="admin-photo-grid">
        {data.photos.map((p) => (
          <figure key={p.id} className="recent-photo" data-testid="admin-photo">
            {p.image_path && <img src={resolveApiUrl(p.image_path)} alt={p.message || 'Photo log'} loading="lazy" />}
            <figcaption>
              <span>{p.message}</span>
              <time dateTime={p.created_at}>{formatDateTime(p.created_at)}</time>
            </figcaption>
          </figure>
        ))}
      </div>
      <Pager page={page} pages={pages} previousLabel="Prev" separator="/" onPage={setPage} />
    </div>
  );
}
