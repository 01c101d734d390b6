//! The Contest API event feed's memory: how many feeds each user holds
//! open, and what each feed sent, so that a client that lost its
//! connection resumes from the last token it received (`since_token`) and
//! gets what changed since, not every object again.
//!
//! A feed sends its objects in batches, one each time it looks at the
//! contest; the last notification of each batch carries a token,
//! `<feed>-<batch>`. The feed remembers, for each object it sent, a hash of
//! the JSON it sent and the batch it was sent in (for an object gone, that
//! its `null` was sent and when). Resuming from batch `b`, every object
//! whose latest notification came after `b` is marked stale, so the next
//! batch sends it again as it is now (its `null` if it is gone); the rest
//! the client holds as it is. So the client gets at least every change
//! since the token, as the spec asks, and of the rest nothing.
//!
//! Tokens are this process's: a feed is remembered while it is open and
//! for [`RESUMABLE_FOR`] after it closes (the spec asks a server that
//! resumes for at least 15 minutes), at most [`CLOSED_PER_USER`] closed
//! feeds per user. A token that is unknown, expired, another user's or
//! another contest's is refused with 400 (the spec's answer: the client
//! connects again without it); another API host sharing the database does
//! not know this host's tokens. A feed resumed while its old connection
//! still looks open (the server has not noticed the client leave) takes
//! its memory over, and the old connection ends at its next look.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    hash::{Hash, Hasher},
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

/// Event feeds one user may hold open at once on this host: each reads
/// the contest every second.
pub const FEEDS_PER_USER: usize = 4;
/// How long a closed feed can be resumed.
pub const RESUMABLE_FOR: Duration = Duration::from_secs(20 * 60);
/// Closed feeds remembered per user (the oldest is forgotten first).
pub const CLOSED_PER_USER: usize = 8;

/// One object of the feed: its type (the endpoint's name), its id (none
/// for the contest and its state), its JSON as the REST endpoint writes
/// it (the same properties in the same order).
pub type FeedObject = (&'static str, Option<String>, String);

type Key = (&'static str, Option<String>);

/// What the client holds of one object, by what the feed sent last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// The JSON with this hash.
    Text(u64),
    /// Nothing: its `null` was sent.
    Gone,
    /// Not known: sent after the batch the client resumed from.
    Stale,
}

/// What one feed sent: per object, what the client holds and the batch
/// that told it.
#[derive(Debug, Default)]
pub struct FeedMemory {
    held: HashMap<Key, (Held, u64)>,
    /// The last batch sent (0 before the first).
    batch: u64,
    /// Counts the connections that took this memory; a connection whose
    /// number is not the latest has been replaced and stops.
    generation: u64,
}

impl FeedMemory {
    /// The notifications that bring the client from what it holds to
    /// `objects` (every object the feed shows now of those `covered` says
    /// the look read: an object covered and not among them is gone), as
    /// NDJSON lines, the last carrying the token `<feed>-<batch>`; empty
    /// when nothing changed.
    pub fn batch(
        &mut self,
        feed: &str,
        objects: Vec<FeedObject>,
        covered: &dyn Fn(&str, Option<&str>) -> bool,
    ) -> String {
        let next = self.batch + 1;
        let mut events: Vec<(Key, Option<String>)> = Vec::new();
        let mut seen = HashSet::with_capacity(objects.len());
        for (kind, id, text) in objects {
            let key = (kind, id);
            let hash = hash_of(&text);
            seen.insert(key.clone());
            if self.held.get(&key).map(|(held, _)| *held) == Some(Held::Text(hash)) {
                continue;
            }
            self.held.insert(key.clone(), (Held::Text(hash), next));
            events.push((key, Some(text)));
        }
        let mut gone: Vec<Key> = self
            .held
            .iter()
            .filter(|(key, (held, _))| {
                *held != Held::Gone && !seen.contains(*key) && covered(key.0, key.1.as_deref())
            })
            .map(|(key, _)| key.clone())
            .collect();
        gone.sort();
        for key in gone {
            self.held.insert(key.clone(), (Held::Gone, next));
            events.push((key, None));
        }
        if events.is_empty() {
            return String::new();
        }
        self.batch = next;
        let last = events.len() - 1;
        let mut lines = String::new();
        for (index, ((kind, id), data)) in events.into_iter().enumerate() {
            lines.push_str(&format!(
                "{{\"type\":{},\"id\":{},\"data\":{}",
                serde_json::Value::from(kind),
                serde_json::to_string(&id).unwrap_or_else(|_| "null".into()),
                data.as_deref().unwrap_or("null")
            ));
            if index == last {
                lines.push_str(&format!(",\"token\":\"{feed}-{next}\""));
            }
            lines.push_str("}\n");
        }
        lines
    }

    /// Back to what the client held after `batch`: everything told later
    /// is stale, to be sent again as it is now.
    fn rewind(&mut self, batch: u64) {
        for (held, told) in self.held.values_mut() {
            if *told > batch {
                *held = Held::Stale;
            }
        }
    }
}

fn hash_of(text: &str) -> u64 {
    // SipHash with fixed keys: the same text hashes the same in this
    // process, and two versions of one object collide with odds of 2^-64.
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Why a `since_token` cannot be resumed from: not a token of this
/// process for this user and contest, or its feed is forgotten.
#[derive(Debug, thiserror::Error)]
#[error(
    "`since_token` `{0}` cannot be resumed here (a token is good for 20 minutes after its feed closes, on the server that gave it); connect again without it to receive every object"
)]
pub struct ResumeError(String);

/// The feeds of this process: open ones per user, and the memories of
/// open and recently closed ones by feed id.
#[derive(Debug, Default)]
pub struct EventFeeds {
    registry: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    open: BTreeMap<String, usize>,
    memories: HashMap<String, Kept>,
}

/// A feed's memory with what the registry decides on without locking it
/// (a feed holds its memory's lock while it makes a batch).
#[derive(Debug)]
struct Kept {
    user: String,
    contest: String,
    /// The latest connection's number, as in the memory.
    generation: u64,
    /// When the latest connection closed; `None` while it is open.
    closed_at: Option<Instant>,
    memory: Arc<Mutex<FeedMemory>>,
}

/// One open feed: its id, its memory and its connection's number. It
/// counts against its user's open feeds until dropped, and marks its
/// memory closed then (unless another connection took it over).
#[derive(Debug)]
pub struct OpenFeed {
    feeds: Arc<EventFeeds>,
    user: String,
    pub id: String,
    memory: Arc<Mutex<FeedMemory>>,
    generation: u64,
}

impl EventFeeds {
    fn registry(&self) -> MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a feed of `contest` for `user`, new or resumed from
    /// `since_token`. `Ok(None)` when the user holds [`FEEDS_PER_USER`]
    /// open already.
    pub fn open(
        feeds: &Arc<EventFeeds>,
        user: &str,
        contest: &str,
        since_token: Option<&str>,
    ) -> Result<Option<OpenFeed>, ResumeError> {
        let mut registry = feeds.registry();
        registry.forget_old(Instant::now());
        if registry.open.get(user).copied().unwrap_or(0) >= FEEDS_PER_USER {
            return Ok(None);
        }
        let (id, memory, generation) = match since_token {
            None => {
                let id = uuid::Uuid::new_v4().simple().to_string();
                let memory = Arc::new(Mutex::new(FeedMemory::default()));
                registry.memories.insert(
                    id.clone(),
                    Kept {
                        user: user.to_string(),
                        contest: contest.to_string(),
                        generation: 0,
                        closed_at: None,
                        memory: memory.clone(),
                    },
                );
                (id, memory, 0)
            }
            Some(token) => {
                let unknown = || ResumeError(token.to_string());
                let (id, batch) = token.rsplit_once('-').ok_or_else(unknown)?;
                let batch: u64 = batch.parse().map_err(|_| unknown())?;
                // Forgotten once expired (`forget_old` above).
                let kept = registry
                    .memories
                    .get_mut(id)
                    .filter(|kept| kept.user == user && kept.contest == contest)
                    .ok_or_else(unknown)?;
                let mut held = lock(&kept.memory);
                if batch > held.batch {
                    return Err(unknown());
                }
                held.rewind(batch);
                held.generation += 1;
                kept.generation = held.generation;
                kept.closed_at = None;
                drop(held);
                (id.to_string(), kept.memory.clone(), kept.generation)
            }
        };
        *registry.open.entry(user.to_string()).or_default() += 1;
        Ok(Some(OpenFeed {
            feeds: feeds.clone(),
            user: user.to_string(),
            id,
            memory,
            generation,
        }))
    }
}

impl Registry {
    /// Forgets closed feeds past [`RESUMABLE_FOR`], and each user's oldest
    /// closed ones past [`CLOSED_PER_USER`].
    fn forget_old(&mut self, now: Instant) {
        let mut closed: BTreeMap<String, Vec<(Instant, String)>> = BTreeMap::new();
        self.memories.retain(|id, kept| match kept.closed_at {
            Some(at) if now.duration_since(at) > RESUMABLE_FOR => false,
            Some(at) => {
                closed
                    .entry(kept.user.clone())
                    .or_default()
                    .push((at, id.clone()));
                true
            }
            None => true,
        });
        for mut feeds in closed.into_values() {
            if feeds.len() > CLOSED_PER_USER {
                feeds.sort();
                for (_, id) in &feeds[..feeds.len() - CLOSED_PER_USER] {
                    self.memories.remove(id);
                }
            }
        }
    }
}

fn lock(memory: &Mutex<FeedMemory>) -> MutexGuard<'_, FeedMemory> {
    memory.lock().unwrap_or_else(|e| e.into_inner())
}

impl OpenFeed {
    /// The next batch's lines (see [`FeedMemory::batch`]), or `None` when
    /// another connection resumed this feed and this one must stop.
    pub fn batch(
        &self,
        objects: Vec<FeedObject>,
        covered: &dyn Fn(&str, Option<&str>) -> bool,
    ) -> Option<String> {
        let mut memory = lock(&self.memory);
        (memory.generation == self.generation).then(|| memory.batch(&self.id, objects, covered))
    }
}

impl Drop for OpenFeed {
    fn drop(&mut self) {
        let mut registry = self.feeds.registry();
        if let Some(kept) = registry
            .memories
            .get_mut(&self.id)
            .filter(|kept| kept.generation == self.generation)
        {
            kept.closed_at = Some(Instant::now());
        }
        if let Some(count) = registry.open.get_mut(&self.user) {
            *count -= 1;
            if *count == 0 {
                registry.open.remove(&self.user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVERY: &dyn Fn(&str, Option<&str>) -> bool = &|_, _| true;

    fn object(kind: &'static str, id: &str, text: &str) -> FeedObject {
        (kind, Some(id.to_string()), text.to_string())
    }

    fn ids(lines: &str) -> Vec<String> {
        lines
            .lines()
            .map(|line| {
                let event: serde_json::Value = serde_json::from_str(line).expect("JSON");
                format!("{}/{}={}", event["type"], event["id"], event["data"]).replace('"', "")
            })
            .collect()
    }

    fn token(lines: &str) -> String {
        let last: serde_json::Value =
            serde_json::from_str(lines.lines().last().expect("a line")).expect("JSON");
        assert!(
            lines
                .lines()
                .rev()
                .skip(1)
                .all(|l| !l.contains("\"token\"")),
            "only the batch's last notification has a token: {lines}"
        );
        last["token"].as_str().expect("a token").to_string()
    }

    #[test]
    fn a_batch_sends_what_changed_and_nulls_for_what_is_gone() {
        let mut memory = FeedMemory::default();
        let first = memory.batch(
            "f",
            vec![object("a", "1", "1"), object("a", "2", "2")],
            EVERY,
        );
        assert_eq!(ids(&first), ["a/1=1", "a/2=2"]);
        assert_eq!(token(&first), "f-1");
        assert_eq!(
            memory.batch(
                "f",
                vec![object("a", "1", "1"), object("a", "2", "2")],
                EVERY
            ),
            ""
        );
        let third = memory.batch("f", vec![object("a", "1", "10")], EVERY);
        assert_eq!(ids(&third), ["a/1=10", "a/2=null"]);
        assert_eq!(token(&third), "f-2", "an empty look is no batch");
    }

    #[test]
    fn a_partial_look_tells_gone_only_what_it_covered() {
        let mut memory = FeedMemory::default();
        memory.batch(
            "f",
            vec![
                object("a", "1", "1"),
                object("a", "2", "2"),
                object("b", "9", "9"),
            ],
            EVERY,
        );
        // A look that read only object 2 of kind a (changed) and all of b.
        let only_two: &dyn Fn(&str, Option<&str>) -> bool =
            &|kind, id| kind == "b" || id == Some("2");
        let partial = memory.batch("f", vec![object("a", "2", "20")], only_two);
        assert_eq!(ids(&partial), ["a/2=20", "b/9=null"]);
        let partial = memory.batch("f", vec![], only_two);
        assert_eq!(
            ids(&partial),
            ["a/2=null"],
            "1 was not covered, so not gone"
        );
    }

    #[test]
    fn a_rewound_memory_sends_again_exactly_what_was_told_after_the_token() {
        let mut memory = FeedMemory::default();
        memory.batch(
            "f",
            vec![
                object("a", "1", "1"),
                object("a", "2", "2"),
                object("a", "3", "3"),
            ],
            EVERY,
        );
        // Batch 2: 2 changes, 3 goes, 4 comes.
        memory.batch(
            "f",
            vec![
                object("a", "1", "1"),
                object("a", "2", "20"),
                object("a", "4", "4"),
            ],
            EVERY,
        );
        memory.rewind(1);
        // Now 4 is gone again: the client, at batch 1, never had it, but a
        // null for it is harmless; 3 must be told gone, 2 its new text, and
        // 1 (unchanged since batch 1) nothing.
        let resumed = memory.batch(
            "f",
            vec![object("a", "1", "1"), object("a", "2", "20")],
            EVERY,
        );
        assert_eq!(ids(&resumed), ["a/2=20", "a/3=null", "a/4=null"]);
        assert_eq!(token(&resumed), "f-3");
        // Rewinding to the latest batch sends nothing.
        memory.rewind(3);
        assert_eq!(
            memory.batch(
                "f",
                vec![object("a", "1", "1"), object("a", "2", "20")],
                EVERY
            ),
            ""
        );
    }

    #[test]
    fn tokens_resume_only_their_own_users_contest_and_a_takeover_stops_the_old_connection() {
        let feeds = Arc::new(EventFeeds::default());
        let first = EventFeeds::open(&feeds, "ann", "spring", None)
            .expect("opens")
            .expect("a place");
        let lines = first
            .batch(vec![object("a", "1", "1")], EVERY)
            .expect("live");
        let token = token(&lines);
        for (user, contest, token) in [
            ("bob", "spring", token.as_str()),
            ("ann", "autumn", token.as_str()),
            ("ann", "spring", "nope"),
            ("ann", "spring", &format!("{}-9", first.id)),
        ] {
            let refused = EventFeeds::open(&feeds, user, contest, Some(token));
            assert!(
                matches!(refused, Err(ResumeError(_))),
                "{user} {contest} {token}: {refused:?}"
            );
        }
        let second = EventFeeds::open(&feeds, "ann", "spring", Some(&token))
            .expect("resumes")
            .expect("a place");
        assert_eq!(second.id, first.id);
        assert_eq!(first.batch(vec![], EVERY), None, "the old connection stops");
        drop(first);
        assert_eq!(
            second.batch(vec![object("a", "1", "1")], EVERY),
            Some(String::new())
        );
        drop(second);
        assert!(feeds.registry().open.is_empty(), "no feed is open");
        assert!(
            feeds.registry().memories[&token[..token.len() - 2]]
                .closed_at
                .is_some(),
            "closed, kept to resume"
        );
    }

    #[test]
    fn a_user_holds_four_feeds_and_closed_ones_are_forgotten_in_time() {
        let feeds = Arc::new(EventFeeds::default());
        let open: Vec<_> = (0..FEEDS_PER_USER)
            .map(|_| EventFeeds::open(&feeds, "ann", "spring", None).unwrap())
            .collect();
        assert!(open.iter().all(Option::is_some));
        assert!(
            EventFeeds::open(&feeds, "ann", "spring", None)
                .unwrap()
                .is_none()
        );
        assert!(
            EventFeeds::open(&feeds, "bob", "spring", None)
                .unwrap()
                .is_some()
        );
        drop(open);
        for _ in 0..CLOSED_PER_USER + 3 {
            EventFeeds::open(&feeds, "ann", "spring", None).unwrap();
        }
        let now = Instant::now();
        feeds.registry().forget_old(now);
        let closed_of_ann = || {
            feeds
                .registry()
                .memories
                .values()
                .filter(|kept| kept.user == "ann")
                .count()
        };
        assert_eq!(closed_of_ann(), CLOSED_PER_USER);
        feeds
            .registry()
            .forget_old(now + RESUMABLE_FOR + Duration::from_secs(1));
        assert_eq!(closed_of_ann(), 0);
    }
}
