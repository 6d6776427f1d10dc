import { type Setting, settingsOf } from './settings';
import type { Service } from './services';

const COMMAND = 'npm run docs:config';

interface Catalogue {
  services: { service: Service; settings: Setting[] }[];
  /** The shared sections, each with its settings (first reader's) and the services reading it */
  sections: { id: string; title: string; summary: string; settings: Setting[]; readers: string[] }[];
}

function catalogue(services: Service[], sections: Record<string, { title: string; summary: string }>): Catalogue {
  const read = services.map((service) => ({ service, settings: settingsOf(service.schema) }));
  for (const { service, settings } of read)
    for (const s of settings)
      if (s.section && !sections[s.section])
        throw new Error(`${service.name}: ${s.name} is in an unknown section ${s.section}`);
  return {
    services: read,
    sections: Object.entries(sections)
      .map(([id, { title, summary }]) => {
        const readers = read.filter(({ settings }) => settings.some((s) => s.section === id));
        const settings = readers[0]?.settings.filter((s) => s.section === id) ?? [];
        // A default that differs between services (the ops port) is shown for each.
        const withDefaults = settings.map((setting) => {
          const defaults = readers.map(({ service, settings: own }) => ({
            service: service.name,
            value: own.find((s) => s.name === setting.name)?.defaultText ?? '—',
          }));
          if (defaults.every((d) => d.value === setting.defaultText)) return setting;
          return {
            ...setting,
            defaultText: defaults.map((d) => `${d.service} ${d.value}`).join(', '),
            exampleValue: '',
          };
        });
        return { id, title, summary, settings: withDefaults, readers: readers.map(({ service }) => service.name) };
      })
      .filter((section) => section.readers.length > 0),
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

function table(settings: Setting[]): string[] {
  return [
    '| Variable | Type | Default | Required | Description |',
    '| --- | --- | --- | --- | --- |',
    ...settings.map((s) => {
      const type = s.production ? `${s.type}; in production: ${s.production}` : s.type;
      return `| \`${s.name}\` | ${cell(type)} | ${cell(s.defaultText)} | ${cell(s.required)} | ${cell(s.description)} |`;
    }),
  ];
}

const anchor = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

/** docs/operations/configuration.md */
export function renderReference(services: Service[], sections: Record<string, { title: string; summary: string }>) {
  const { services: read, sections: shared } = catalogue(services, sections);
  const own = read.map(({ service, settings }) => ({ service, settings: settings.filter((s) => !s.section) }));
  const lines = [
    '# Configuration reference',
    '',
    `<!-- Generated from the config schemas by \`${COMMAND}\`: edit the schemas, not this file. -->`,
    '',
    'Every service reads its settings from environment variables once, at start-up, into a typed',
    'configuration, and refuses to start, naming each setting that is missing or malformed (exit',
    'code 1). An empty value counts as unset: the default applies. `.env.example` lists every',
    'setting with its default, generated from the same schemas.',
    '',
    'Settings that several services read are described once, in their shared section; each',
    "service's own follow.",
    '',
    '| Shared section | Read by |',
    '| --- | --- |',
    ...shared.map((s) => `| [${s.title}](#${anchor(s.title)}) | ${s.readers.join(', ')} |`),
    '',
    `Each service's own: ${own.map(({ service }) => `[${service.name}](#${anchor(service.name)})`).join(', ')}.`,
    '',
    '## Shared settings',
    ...shared.flatMap((s) => [
      '',
      `### ${s.title}`,
      '',
      `${s.summary} Read by ${s.readers.join(', ')}.`,
      '',
      ...table(s.settings),
    ]),
    ...own.flatMap(({ service, settings }) => {
      const reads = shared.filter((s) => s.readers.includes(service.name));
      return [
        '',
        `## ${service.name}`,
        '',
        service.summary,
        ...(reads.length > 0
          ? ['', `Shared sections it reads: ${reads.map((s) => `[${s.title}](#${anchor(s.title)})`).join(', ')}.`]
          : []),
        '',
        ...(settings.length > 0 ? table(settings) : ['None of its own.']),
      ];
    }),
    '',
  ];
  return lines.join('\n');
}

/** Words of `text` in comment lines of at most `width` characters. */
function comment(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length > 1 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

function envEntry(s: Setting): string[] {
  const notes = [
    s.choices && `one of ${s.choices.join(' | ')}`,
    s.requiredWhen && `required ${s.requiredWhen}`,
    s.required === 'yes' && 'required',
    s.production && `in production: ${s.production}`,
    s.exampleValue === '' && s.defaultText !== '—' && s.defaultText !== 'empty' && `default: ${s.defaultText}`,
  ].filter(Boolean);
  const text = notes.length ? `${s.description} (${notes.join('; ')})` : s.description;
  return [...comment(text), `${s.name}=${s.exampleValue}`];
}

/** .env.example: every setting once, the shared sections first. */
export function renderEnvExample(services: Service[], sections: Record<string, { title: string; summary: string }>) {
  const { services: read, sections: shared } = catalogue(services, sections);
  const seen = new Set<string>();
  const group = (title: string, settings: Setting[]) => {
    const fresh = settings.filter((s) => s.inEnvExample && !seen.has(s.name));
    fresh.forEach((s) => seen.add(s.name));
    if (fresh.length === 0) return [];
    return ['', `# --- ${title} ${'-'.repeat(Math.max(3, 93 - title.length))}`, ...fresh.flatMap(envEntry)];
  };
  return [
    ...comment(
      `Every setting of every service, with its default (docs/operations/configuration.md describes each). Generated from the config schemas by \`${COMMAND}\`: edit the schemas, not this file. Each service validates its own at start-up and refuses to start, naming the setting, when one is missing or malformed; an empty value means unset (the default applies).`,
    ),
    ...shared.flatMap((s) => group(`${s.title.toLowerCase()} (${s.readers.join(', ')})`, s.settings)),
    ...read.flatMap(({ service, settings }) =>
      group(
        service.name,
        settings.filter((s) => !s.section),
      ),
    ),
    '',
  ].join('\n');
}
