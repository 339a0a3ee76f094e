// Bodies of webhook deliveries for the intake's tests, in the provider's envelope (REFERENCE.md, "Two levels",
// Webhooks); `over` replaces or adds members of the envelope.

export function delivery(responseId: string, requestId: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    user_id: 'u-1', callback_id: `cb-${responseId}`, event_type: 'response_created', reference_type: 'request', reference_id: requestId,
    payload: {
      request_id: requestId, response_id: responseId, response_type: 'lawsuit', created_at: '2026-06-15T12:00:00.000Z',
      response_data: { code: '0710802-55.2018.8.02.0001', instance: 1, name: 'A x B' }, tags: { cached_response: false },
    },
    ...over,
  });
}
