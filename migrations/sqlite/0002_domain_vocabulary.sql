-- The domain vocabulary: a problem's source, its URL and memory limit are read from
-- problem.toml and served by the API; a submission's payload carries its kind
-- as the `kind` tag of its JSON, the same text as the `kind` column.

alter table problem add column source text not null default '';
alter table problem add column source_url text;                  -- the original task's page, if public
alter table problem add column memory_limit_mib integer not null default 0;
-- Force the next catalog sync to write the new columns: a definition hash
-- that matches no folder makes every problem update once.
update problem set definition_hash = '';

update submission set payload = json_set(payload, '$.kind', kind);
