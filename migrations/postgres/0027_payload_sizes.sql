-- The sizes of an answers or custom payload (JSON: each answer's bytes, or
-- the input's and the output's), written with it, so showing a submission
-- does not read and decode a payload of up to a day's bytes. Null for
-- programs (their source is shown) and for rows stored before.
alter table submission add column payload_sizes text;
