// The living style guide: /{lang}/layouts/* shows the project's own partials in all their states.
import { Router, type Request } from 'express';
import { requireLogin, requireMandant } from '../../http/guards.js';
import { LAYOUT_PAGES } from '../../permissions/route-tree.js';
import { PAGINATION_DEMO, STATUS_VARIANT, pageOfDeliveries } from './samples.js';
import { ListQuery, SegmentQuery, TabsQuery } from './schema.js';

type LayoutPage = (typeof LAYOUT_PAGES)[number];

// The few pages whose demos react to the URL (tabs, segmented control, sorting, paging): no JavaScript needed.
const pageLocals: Partial<Record<LayoutPage, (req: Request) => Record<string, unknown>>> = {
  'tabs-group': (req) => ({ kitTab: TabsQuery.parse(req.query).tab }),
  'button-group': (req) => ({ kitSegment: SegmentQuery.parse(req.query) }),
  table: (req) => ({ kitDeliveries: pageOfDeliveries(ListQuery.parse(req.query)), kitStatusVariant: STATUS_VARIANT }),
  pagination: (req) => {
    const pages = Math.ceil(PAGINATION_DEMO.total / PAGINATION_DEMO.pageSize);
    return { kitPagination: { ...PAGINATION_DEMO, page: Math.min(ListQuery.parse(req.query).page, pages) } };
  },
};

export function layoutRoutes(): Router {
  const router = Router({ mergeParams: true });
  router.get('/layouts', (_req, res) => res.redirect(`/${res.locals.lang}/layouts/about`));
  for (const name of LAYOUT_PAGES) {
    router.get(`/layouts/${name}`, requireLogin(), requireMandant(), async (req, res) => {
      await res.page(`layouts/${name}`, {
        title: req.t(`layouts:pages.${name}`),
        layoutPages: LAYOUT_PAGES,
        layoutPage: name,
        islands: name === 'about' ? ['demo-counter'] : false,
        ...pageLocals[name]?.(req),
      });
    });
  }
  return router;
}
