// The links/meta form of the pagination envelope (spec, "Pagination envelope"), shared by every list that
// answers in it (requests, tracking): one page of `all`, with absolute links that keep the status filter.

export function linksEnvelope<T, R>(opts: {
  baseUrl: string; path: string; all: readonly T[]; page: number; pageSize: number; statuses: readonly string[]; render: (item: T) => R;
}): { page_data: R[]; links: Record<'first' | 'last' | 'prev' | 'next', string | null>; meta: Record<string, number> } {
  const { all, page, pageSize, statuses } = opts;
  const allPages = Math.ceil(all.length / pageSize);
  const slice = all.slice((page - 1) * pageSize, page * pageSize);
  const link = (p: number) => {
    const q = new URLSearchParams({ page: String(p), page_size: String(pageSize) });
    for (const s of statuses) q.append('status', s);
    return `${opts.baseUrl}${opts.path}?${q.toString()}`;
  };
  return {
    page_data: slice.map(opts.render),
    links: {
      first: link(1),
      last: link(Math.max(1, allPages)),
      prev: page > 1 ? link(Math.min(page - 1, Math.max(1, allPages))) : null,
      next: page < allPages ? link(page + 1) : null,
    },
    meta: { page, page_count: slice.length, all_pages_count: allPages, all_count: all.length },
  };
}
