// The paths one replica calls on another (PEER_TOKEN): announce a revision, pass on a push
// webhook, hand over its polls and its events.
export const PEER_PATHS = {
  announce: '/peers/v1/announce',
  sync: '/peers/v1/sync',
  polls: '/peers/v1/polls',
  events: '/peers/v1/events',
} as const;
