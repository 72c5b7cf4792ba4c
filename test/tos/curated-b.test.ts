// Curated terms-of-service analyses, social networks, commerce and media (issue 16 §4): each service of
// this list passes the checks of curated-checks.ts (the six dimensions, clauses quoted verbatim, source
// pinned, document under 512 KiB). docs/decisions/compliance_data.md "Terms of service: curated
// analyses, social networks, commerce and media (2026.1)".
import { curatedSuite } from './curated-checks.js'

const IDS = [
  'facebook', 'instagram', 'tiktok', 'linkedin', 'twitter', 'youtube', 'pinterest', 'snapchat', 'discord',
  'spotify', 'netflix', 'airbnb', 'amazon', 'zoom', 'twitch', 'tumblr',
]
curatedSuite('tos/curated-b: curated analyses, social networks, commerce and media', IDS, 13)
