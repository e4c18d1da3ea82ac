-- Up Migration
-- Edits of an upload without a name (taken before uploads kept names, or sent without one) were
-- titled "Uploaded audio (repainted 4–6 s)", every one alike, and so were the edits of those edits,
-- which take their source's title. They are titled after the day the upload was taken instead, as
-- oracle/src/domain/song-edits.ts (uploadTitle) titles new ones and the web app's upload card
-- names the upload: "Upload of 28 Nov 2026 (repainted 4–6 s)" (en-GB's short months, UTC). The
-- file's name is nowhere to recover: the stored object is keyed by the upload's id. A title its
-- owner has changed since no longer starts "Uploaded audio" and is left as it is.
WITH RECURSIVE lineage (id, uploaded_at) AS (
  SELECT j.id, u.created_at
    FROM generation_jobs j JOIN uploads u ON u.id = j.edit_upload_id
   WHERE u.name IS NULL
  UNION ALL
  SELECT j.id, l.uploaded_at
    FROM generation_jobs j JOIN lineage l ON j.edit_source_id = l.id
)
UPDATE generation_jobs j
   SET title = left('Upload of ' || replace(to_char(l.uploaded_at AT TIME ZONE 'UTC', 'FMDD Mon YYYY'), 'Sep ', 'Sept ')
                    || substr(j.title, char_length('Uploaded audio') + 1), 200)
  FROM lineage l
 WHERE j.id = l.id AND j.title LIKE 'Uploaded audio%';

-- Down Migration
-- Nothing to undo: the old titles said less, and nothing reads them.
