// Version 3: one word index over what a person remembers of a Library item, for the command
// palette and every Library search: the name of the local file it was uploaded from, its
// description and its source. It is an external-content FTS5 table over library_items kept
// by triggers on the mirror's own writes (no second copy to drift); diacritics are folded
// (remove_diacritics 2: "creme" finds "Crème") and 2- and 3-letter prefixes are indexed, so
// the first letters typed find their words without a scan. The file name comes from the
// files table (an uploaded image's ID is the Library item's ID), whichever is written first.
// Two more indexes list the Library of every brand at once, newest first, without a sort.
export const schemaV3 = `
DROP TRIGGER library_search_ai;
DROP TRIGGER library_search_ad;
DROP TRIGGER library_search_au;
DROP TABLE library_search;

ALTER TABLE library_items ADD COLUMN file_name TEXT;
CREATE INDEX files_image ON files(image_id) WHERE image_id IS NOT NULL;
UPDATE library_items SET file_name = (
  SELECT f.rel_path FROM files f
  WHERE f.image_id = library_items.id AND f.brand_id = library_items.brand_id
  ORDER BY f.updated_at DESC LIMIT 1
);

CREATE INDEX library_all ON library_items(removed, sort_at DESC, id DESC);
CREATE INDEX library_all_by_type ON library_items(type, removed, sort_at DESC, id DESC);

CREATE VIRTUAL TABLE library_search USING fts5(
  file_name, description, source, content = 'library_items', content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO library_search(library_search) VALUES ('rebuild');

CREATE TRIGGER library_search_ai AFTER INSERT ON library_items BEGIN
  INSERT INTO library_search(rowid, file_name, description, source)
    VALUES (new.rowid, new.file_name, new.description, new.source);
END;
CREATE TRIGGER library_search_ad AFTER DELETE ON library_items BEGIN
  INSERT INTO library_search(library_search, rowid, file_name, description, source)
    VALUES ('delete', old.rowid, old.file_name, old.description, old.source);
END;
CREATE TRIGGER library_search_au AFTER UPDATE OF file_name, description, source ON library_items
  WHEN old.file_name IS NOT new.file_name OR old.description IS NOT new.description
    OR old.source IS NOT new.source BEGIN
  INSERT INTO library_search(library_search, rowid, file_name, description, source)
    VALUES ('delete', old.rowid, old.file_name, old.description, old.source);
  INSERT INTO library_search(rowid, file_name, description, source)
    VALUES (new.rowid, new.file_name, new.description, new.source);
END;

-- The local file an uploaded image came from names its Library item: the item's insert looks
-- it up (LibraryRepo's write path: a second AFTER INSERT trigger would race the index's), and
-- an upload recorded, or a file moved, after the item arrived renames it here.
CREATE TRIGGER files_name_library_item AFTER UPDATE OF image_id, rel_path ON files
  WHEN new.image_id IS NOT NULL BEGIN
  UPDATE library_items SET file_name = new.rel_path
    WHERE id = new.image_id AND brand_id = new.brand_id AND file_name IS NOT new.rel_path;
END;
CREATE TRIGGER files_name_library_item_ai AFTER INSERT ON files WHEN new.image_id IS NOT NULL BEGIN
  UPDATE library_items SET file_name = new.rel_path
    WHERE id = new.image_id AND brand_id = new.brand_id AND file_name IS NOT new.rel_path;
END;
`;
