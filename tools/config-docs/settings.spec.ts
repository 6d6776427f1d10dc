import { bool, positiveInt, postgresUrl } from '@pay/platform';
import { z } from 'zod';
import { describeSetting } from './settings';

describe('a setting as the reference shows it', () => {
  it('derives the type, the default and whether it is required from the schema', () => {
    expect(describeSetting('A', positiveInt().max(1000).default(200).meta({ description: 'a' }))).toMatchObject({
      type: 'integer, 1 to 1000',
      defaultText: '`200`',
      exampleValue: '200',
      required: 'no',
    });
    expect(describeSetting('B', postgresUrl().meta({ description: 'b', example: 'postgresql://h/db' }))).toMatchObject({
      type: 'PostgreSQL URL',
      defaultText: '—',
      exampleValue: 'postgresql://h/db',
      required: 'yes',
    });
    expect(
      describeSetting('C', z.enum(['x', 'y']).optional().meta({ description: 'c', requiredWhen: 'with D=x' })),
    ).toMatchObject({ type: 'one of `x`, `y`', choices: ['x', 'y'], required: 'with D=x', exampleValue: '' });
    expect(
      describeSetting('D', bool().default(false).meta({ description: 'd', production: 'refuses `true`' })),
    ).toMatchObject({
      type: 'boolean (`true`, `false`, `1`, `0`)',
      defaultText: '`false`',
      exampleValue: 'false',
      production: 'refuses `true`',
    });
  });

  it('never computes a default it is told how to show (a path of this machine)', () => {
    const computed = jest.fn(() => '/somewhere');
    expect(
      describeSetting('E', z.string().default(computed).meta({ description: 'e', defaultText: 'the build' })),
    ).toMatchObject({ defaultText: 'the build', exampleValue: '' });
    expect(computed).not.toHaveBeenCalled();
  });

  it('refuses a setting without a description, naming it', () => {
    expect(() => describeSetting('F', z.string())).toThrow('F has no description');
  });
});
