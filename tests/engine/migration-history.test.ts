import { describe, it, expect } from 'vitest';
import { pendingOf, type MigrationFile } from '../../runtime/db/migrator.js';

const file = (tag: string, when: number, hash: string): MigrationFile => ({ tag, when, hash, file: `${tag}.sql`, sql: '', statements: [] });

/**
 * Which migrations are pending, when the files and the database's record disagree: a migration rewritten by codegen
 * after another database applied it (codegen asked the wrong development database) must not run again.
 */
describe('pending migrations against the applied history', () => {
  const applied = [{ hash: 'h0', createdAt: 100 }, { hash: 'h1', createdAt: 200 }];

  it('a file is pending when it is later than the last applied and its SQL is not applied', () => {
    expect(pendingOf([file('0000', 100, 'h0'), file('0001', 200, 'h1'), file('0002', 300, 'h2')], applied).map((f) => f.tag)).toEqual(['0002']);
    expect(pendingOf([file('0000', 100, 'h0'), file('0001', 200, 'h1')], applied)).toEqual([]);
  });

  it('a migration put back byte for byte under a new `when` is applied already, not run again', () => {
    expect(pendingOf([file('0000', 100, 'h0'), file('0001', 250, 'h1')], applied)).toEqual([]);
  });

  it('the last applied migration rewritten (another SQL): refused, naming what would have run and how to recover', () => {
    expect(() => pendingOf([file('0000', 100, 'h0'), file('0001', 250, 'h1-rewritten')], applied)).toThrow(
      /last applied migration \(applied as 1970-01-01T00:00:00\.200Z\) matches no file in migrations\/: it was changed or removed after it was applied, so 0001 would run against a schema it does not expect\. Nothing was applied\./,
    );
  });
});
