import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayNameProblem, normalizeDisplayName } from '../../oracle/src/domain/profile-text.ts';
import { normalizeShownLine, normalizeShownText, shownTextProblem } from '../../oracle/src/domain/shown-text.ts';
import { uploadName } from '../../oracle/src/http/routes/uploads.ts';
import { renameJobSchema } from '../../oracle/src/http/schemas.ts';

describe('words shown to others: one rule for names, bios, titles and upload names', () => {
  it('refuses what could pass one text for another, whichever field carries it', () => {
    const tricks = ['evil\u202Egnp.wav', 'zero\u200Bwidth', 'tab\there', 'bell\u0007', 'iso\u2066late', '\u3164', 'priv\uE000ate'];
    for (const trick of tricks) {
      const line = normalizeShownLine(trick);
      assert.notEqual(shownTextProblem(line, { lineBreaks: false }), null, JSON.stringify(trick));
      assert.notEqual(displayNameProblem(normalizeDisplayName(trick)), null, JSON.stringify(trick));
      assert.equal(renameJobSchema.safeParse({ title: trick }).success, false, JSON.stringify(trick));
      assert.equal(uploadName(encodeURIComponent(trick)).ok, false, JSON.stringify(trick));
    }
    // A line break belongs in a bio only.
    assert.notEqual(shownTextProblem(normalizeShownLine('two\nlines'), { lineBreaks: false }), null);
    assert.equal(shownTextProblem(normalizeShownText('two\r\nlines'), { lineBreaks: true }), null);
  });

  it('takes letters, symbols and emoji, and makes other spaces plain ones', () => {
    // macOS names screenshots with U+202F before "AM"; a no-break space is common in French.
    const screenshot = uploadName(encodeURIComponent('Screen Shot 2026-11-29 at 10.00.00\u202FAM.wav'));
    assert.deepEqual(screenshot, { ok: true, value: 'Screen Shot 2026-11-29 at 10.00.00 AM.wav' });
    assert.deepEqual(renameJobSchema.parse({ title: '  Nuit\u00A0\u00A0blanche 👩‍💻 ' }), { title: 'Nuit blanche 👩‍💻' });
    assert.equal(normalizeDisplayName('Zoë\u2009B.'), 'Zoë B.');
    assert.deepEqual(uploadName(encodeURIComponent('C:\\takes\\chord — take 2.wav')), { ok: true, value: 'chord — take 2.wav' });
    assert.deepEqual(uploadName(encodeURIComponent('   ')), { ok: true, value: undefined });
  });
});
