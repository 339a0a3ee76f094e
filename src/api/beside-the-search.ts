// What a request's or a tracking's body carries beside its search, at the body's top level: `with_attachments`
// (the documentation: lawsuit_cnj searches only) and `callback_url` (results pushed to the webhook intake). Both
// POST /requests and POST /tracking take them the same way; nothing is sent that was not asked.

interface BesideTheSearch {
  with_attachments?: true;
  callback_url?: string;
}

export function besideTheSearch(o: { withAttachments?: boolean; callbackUrl?: string }): BesideTheSearch {
  return { ...(o.withAttachments ? { with_attachments: true } : {}), ...(o.callbackUrl === undefined ? {} : { callback_url: o.callbackUrl }) };
}
