import { mountApp } from '../shared/app-root';
mountApp({ apiBase: '/console/api', titleKey: 'app.consoleTitle', nav: [], pages: [] });
