import { describe, it, expect, afterAll } from 'vitest';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { ROOT } from '../../engine/codegen.js';
import { loadGenerated } from '../../runtime/generated.js';
import { foldCase, openSqlite, SQLITE_LOWER } from '../../runtime/db/sqlite.js';
import { sqliteDatabase } from '../helpers/databases.js';

/**
 * ilike on SQLite folds case with a function of the app's own (SQLite's lower() and LIKE fold ASCII only): every
 * connection openSqlite opens has it — the writer, the reader, and the reader that replaces it after migrations.
 */
describe('SQLite: unicode_lower on every connection', () => {
  const db = sqliteDatabase();
  afterAll(() => db.drop());

  it('folds as PostgreSQL lower() does in a UTF-8 locale: per character, every script', () => {
    expect(foldCase('ШАБЛОН Письма')).toBe('шаблон письма');
    expect(foldCase('ÄRGER ÜBER ŒUVRE')).toBe('ärger über œuvre');
    // per character: a word-final Σ is σ (not ς), İ is i (not i with a combining dot)
    expect(foldCase('ΟΔΟΣ ΣΟΦΙΑΣ')).toBe('οδοσ σοφιασ');
    expect(foldCase('İSTANBUL')).toBe('istanbul');
    expect(foldCase('plain ascii')).toBe('plain ascii');
  });

  it('is on the reader and the writer, before and after migrations; NULL stays NULL', async () => {
    const generated = await loadGenerated(join(ROOT, 'generated'));
    const database = openSqlite(db.url, generated.tables.sqlite);
    try {
      const read = () => database.readRaw!(`select ${SQLITE_LOWER}(?), ${SQLITE_LOWER}(null), ${SQLITE_LOWER}(12)`, ['ШАБЛОН'])[0];
      const write = () => database.transaction(async (tx) => tx.all(sql`select ${sql.raw(SQLITE_LOWER)}(${'ΣΟΦΙΑ'}) as v`));
      expect(read()).toEqual(['шаблон', null, '12']);
      expect(await write()).toEqual([{ v: 'σοφια' }]);
      expect((await database.migrate(join(ROOT, 'migrations'))).applied.length).toBeGreaterThan(0);
      // the reader was replaced after the migrations
      expect(read()).toEqual(['шаблон', null, '12']);
      expect(await write()).toEqual([{ v: 'σοφια' }]);
      expect(await database.db.all(sql`select ${sql.raw(SQLITE_LOWER)}(${'ТОВАР'}) as v`)).toEqual([{ v: 'товар' }]);
    } finally {
      await database.close();
    }
  });
});
