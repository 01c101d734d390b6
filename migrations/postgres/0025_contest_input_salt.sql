-- A secret of each contest, mixed into the seed of every participant's own
-- input: without it the seed was a hash of the contest's, the user's and the
-- problem's names, so anyone could generate their input with the open
-- generator before their window began. Never shown. Contests made before it
-- keep none, and with it the inputs they handed out.
alter table contest add column input_salt text;
