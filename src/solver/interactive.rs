//! Interactive play: a contestant's program plays a hosted game against the
//! solver core, move by move. Pure: the referee is a state machine that
//! takes the program's lines and returns the judge's; the daemon moves the
//! text over pipes (`app::worker::interactive`).
//!
//! # The protocol (the same for every game)
//!
//! 1. The judge writes the number of games `G` on a line.
//! 2. For each game, the judge writes the starting position in the base
//!    problem's input format. The program answers `First` or `Second`: the
//!    side it plays. Choosing the side that loses under perfect play ends
//!    the testcase (WA).
//! 3. The first player moves first; the two then alternate, one move a
//!    line, in the game's move format ([`Game::MOVE_FORMAT`]). Every move of
//!    the program is checked for form and legality.
//! 4. The game ends when the player to move has no legal move: that player
//!    loses. When the judge has no move it writes `none` (the program won
//!    this game) and goes on with the next game, if any. When the program
//!    has no move, it lost: the testcase ends (WA).
//!
//! From a winning position the judge plays the solver core's winning move;
//! from a losing one, a legal move chosen by a random source seeded from the
//! testcase's text, so the same testcase always gets the same replies and a
//! program must know the winning answer to each of them.
//!
//! A line the program writes is at most [`MAX_LINE_BYTES`] bytes; the
//! judge reads no more than that, so a flood costs it nothing.

use std::fmt;

use super::{
    InputError, SeededRng,
    input::{Field, Scanner},
};

/// The longest line the program may write, newline excluded.
pub const MAX_LINE_BYTES: usize = 256;

/// What the judge writes when it has no legal move.
pub const JUDGE_HAS_NO_MOVE: &str = "none";

/// Lines of a transcript kept from its start and from its end.
const TRANSCRIPT_ENDS: usize = 30;
/// Characters of one transcript line kept.
const TRANSCRIPT_LINE_CHARS: usize = 160;

/// A game as played move by move: the rules, and the solver core's play.
pub trait Game {
    /// A position, as the base problem's input describes it.
    type Position: Clone + fmt::Debug + Send;
    type Move: Copy + fmt::Debug + PartialEq + Send;

    /// The move format, for statements and messages (e.g. "`i k`").
    const MOVE_FORMAT: &'static str;

    /// Writes the position as text that [`Game::parse_position`] reads:
    /// the base problem's input format where that format can say it.
    fn write_position(position: &Self::Position, out: &mut String);
    /// Writes a game's starting position as the judge sends it: the base
    /// problem's input format. The same as [`Game::write_position`] unless
    /// the base format describes only starting positions (coin-game's `N`).
    fn write_start(position: &Self::Position, out: &mut String) {
        Self::write_position(position, out);
    }
    /// Parses one line as a move, checking its form only.
    fn parse_move(line: &str) -> Result<Self::Move, String>;
    /// Whether `mv` is legal from `position`, and if not, why.
    fn check_move(position: &Self::Position, mv: Self::Move) -> Result<(), String>;
    /// Plays a legal move.
    fn play(position: &mut Self::Position, mv: Self::Move);
    /// Writes a move as the program reads it, without the newline.
    fn write_move(mv: Self::Move, out: &mut String);
    /// A winning move for the player to move, or `None` if that player
    /// loses under perfect play (or has no move at all).
    fn winning_move(position: &Self::Position) -> Option<Self::Move>;
    /// Some legal move, chosen with `rng`, or `None` if there is none.
    fn any_move(position: &Self::Position, rng: &mut SeededRng) -> Option<Self::Move>;

    /// Why a program left without a move lost, in the game's own words.
    const STUCK: &'static str = "you have no legal move left: you lost";
    /// How [`Game::write_position`] writes a position in play, where that
    /// is not the base problem's input format.
    const POSITION_FORMAT: Option<&'static str> = None;

    /// Parses one position in the base problem's format (one game),
    /// checking the interactive problem's constraints.
    fn parse_position(text: &str) -> Result<Self::Position, InputError>;
    /// A starting position for practice.
    fn deal(rng: &mut SeededRng) -> Self::Position;
    /// Every winning move of the player to move (empty if that player loses).
    fn winning_moves(position: &Self::Position) -> Vec<Self::Move>;
    /// Why the player to move wins or loses, in a few lines: each
    /// component's value and how they combine, or the game's invariant.
    fn explain(position: &Self::Position) -> Vec<String>;
}

/// Reads a testcase of an interactive problem: `G`, from 1 to `max_games`,
/// then `G` games, each read by `scan_game` in the base problem's format
/// (given the game's number, from 1), and nothing after them.
pub fn read_games<T>(
    text: &str,
    max_games: usize,
    mut scan_game: impl FnMut(&mut Scanner<'_>, usize) -> Result<T, InputError>,
) -> Result<Vec<T>, InputError> {
    let mut s = Scanner::new(text);
    let g = s.usize(Field::new("G"), 1, max_games)?;
    let mut games = Vec::with_capacity(g);
    for game in 1..=g {
        games.push(scan_game(&mut s, game)?);
    }
    s.finish()?;
    Ok(games)
}

/// The last line of a Sprague–Grundy explanation: whether the XOR of the
/// components' values is non-zero (`wins`), and if so how to win.
pub fn xor_conclusion(wins: bool, how_to_win: &str) -> String {
    if wins {
        format!("It is not 0, so the player to move wins: {how_to_win}")
    } else {
        "It is 0, so the player to move loses: every move makes it non-zero, and the opponent can make it 0 again.".to_string()
    }
}

/// Why the program lost a testcase: the game (from 1), the move number in
/// that game (from 1; 0 before the first move) and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foul {
    pub game: usize,
    pub move_number: usize,
    pub reason: String,
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.move_number == 0 {
            write!(f, "game {}: {}", self.game, self.reason)
        } else {
            write!(
                f,
                "game {}, move {}: {}",
                self.game, self.move_number, self.reason
            )
        }
    }
}

/// What the judge does after hearing a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// Write this text, then wait for the program's next line.
    Reply(String),
    /// Write this text (possibly empty), and the testcase is over: `Ok` if
    /// the program won every game.
    Over {
        reply: String,
        result: Result<(), Foul>,
    },
}

/// One testcase's judge, seen through text only.
pub trait Referee: Send {
    /// What the judge writes first.
    fn opening(&mut self) -> String;
    /// The program's next line, without its newline.
    fn hear(&mut self, line: &[u8]) -> Heard;
    /// Ends the testcase for a reason the protocol layer found (a line too
    /// long, the program gone), at the current game and move.
    fn foul(&mut self, reason: &str) -> Foul;
    /// Whether every game was played to the program's win.
    fn finished(&self) -> bool;
    /// The lines exchanged, the first and last ones when there were many.
    fn transcript(&self) -> String;
    /// The line a program that plays perfectly would write now (the
    /// winning side, then the solver core's winning moves), or `None` once
    /// the testcase is over: an in-process player for tests and benchmarks.
    fn perfect_line(&self) -> Option<String>;
    /// The line of a weaker player: the winning side, then a legal move
    /// drawn with `seed`, so that the judge's winning moves get played
    /// (benchmarks).
    fn random_line(&self, seed: u64) -> Option<String>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The program has not said which side it plays.
    Side,
    /// The program is to move.
    Move,
    Over,
}

/// The referee of one testcase of a [`Game`].
pub struct Match<G: Game> {
    games: Vec<G::Position>,
    /// The game being played, from 0.
    game: usize,
    position: G::Position,
    /// Moves played in this game.
    moves: usize,
    stage: Stage,
    rng: SeededRng,
    transcript: Transcript,
}

impl<G: Game> Match<G> {
    /// A match over `games`, its losing-side replies drawn from `seed`.
    pub fn new(games: Vec<G::Position>, seed: u64) -> Self {
        let position = games
            .first()
            .cloned()
            .expect("a match has at least one game");
        Match {
            games,
            game: 0,
            position,
            moves: 0,
            stage: Stage::Side,
            rng: SeededRng::new(seed),
            transcript: Transcript::default(),
        }
    }

    fn say(&mut self, text: &str, out: &mut String) {
        for line in text.lines() {
            self.transcript.push(Speaker::Judge, line);
        }
        out.push_str(text);
    }

    fn start_game(&mut self, out: &mut String) {
        self.position = self.games[self.game].clone();
        self.moves = 0;
        self.stage = Stage::Side;
        let mut text = String::new();
        G::write_start(&self.position, &mut text);
        self.say(&text, out);
    }

    fn over(&mut self, reply: String, result: Result<(), Foul>) -> Heard {
        self.stage = Stage::Over;
        Heard::Over { reply, result }
    }

    fn lose(&mut self, reply: String, reason: String) -> Heard {
        let foul = self.foul_here(reason);
        self.over(reply, Err(foul))
    }

    fn foul_here(&self, reason: String) -> Foul {
        Foul {
            game: self.game + 1,
            move_number: self.moves,
            reason,
        }
    }

    /// The judge's turn: it moves, or says it has none and the next game
    /// starts (or the match ends).
    fn judge_moves(&mut self, mut out: String) -> Heard {
        let chosen =
            G::winning_move(&self.position).or_else(|| G::any_move(&self.position, &mut self.rng));
        let Some(mv) = chosen else {
            self.say(&format!("{JUDGE_HAS_NO_MOVE}\n"), &mut out);
            self.game += 1;
            if self.game == self.games.len() {
                return self.over(out, Ok(()));
            }
            self.start_game(&mut out);
            return Heard::Reply(out);
        };
        G::play(&mut self.position, mv);
        self.moves += 1;
        let mut text = String::new();
        G::write_move(mv, &mut text);
        text.push('\n');
        self.say(&text, &mut out);
        if G::any_move(&self.position, &mut self.rng.clone()).is_none() {
            self.moves += 1;
            return self.lose(out, G::STUCK.to_string());
        }
        self.stage = Stage::Move;
        Heard::Reply(out)
    }
}

impl<G: Game> Referee for Match<G>
where
    G::Position: Send,
{
    fn opening(&mut self) -> String {
        let mut out = String::new();
        self.say(&format!("{}\n", self.games.len()), &mut out);
        self.start_game(&mut out);
        out
    }

    fn hear(&mut self, line: &[u8]) -> Heard {
        let text = match std::str::from_utf8(line) {
            Ok(text) => text,
            Err(_) => {
                self.transcript
                    .push(Speaker::Program, &String::from_utf8_lossy(line));
                return self.lose(String::new(), "the line is not UTF-8 text".to_string());
            }
        };
        self.transcript.push(Speaker::Program, text);
        let words = text.trim_end_matches('\r');
        match self.stage {
            Stage::Over => self.lose(String::new(), "a line after the end".to_string()),
            Stage::Side => {
                let first = match words.trim() {
                    "First" => true,
                    "Second" => false,
                    other => {
                        return self.lose(
                            String::new(),
                            format!("expected `First` or `Second`, read `{}`", clip(other)),
                        );
                    }
                };
                let first_wins = G::winning_move(&self.position).is_some();
                if first != first_wins {
                    let (chosen, loser) = if first {
                        ("First", "the first player")
                    } else {
                        ("Second", "the second player")
                    };
                    return self.lose(
                        String::new(),
                        format!("chose {chosen}, but {loser} loses this position"),
                    );
                }
                if first {
                    self.stage = Stage::Move;
                    Heard::Reply(String::new())
                } else {
                    self.judge_moves(String::new())
                }
            }
            Stage::Move => {
                let number = self.moves + 1;
                let mv = match G::parse_move(words.trim()) {
                    Ok(mv) => mv,
                    Err(why) => {
                        self.moves = number;
                        return self.lose(
                            String::new(),
                            format!("malformed move `{}`: {why}", clip(words.trim())),
                        );
                    }
                };
                if let Err(why) = G::check_move(&self.position, mv) {
                    self.moves = number;
                    return self.lose(String::new(), format!("illegal move: {why}"));
                }
                G::play(&mut self.position, mv);
                self.moves = number;
                self.judge_moves(String::new())
            }
        }
    }

    fn foul(&mut self, reason: &str) -> Foul {
        let number = match self.stage {
            Stage::Side => 0,
            Stage::Move | Stage::Over => self.moves + 1,
        };
        self.stage = Stage::Over;
        Foul {
            game: self.game + 1,
            move_number: number,
            reason: reason.to_string(),
        }
    }

    fn perfect_line(&self) -> Option<String> {
        match self.stage {
            Stage::Side => Some(
                if G::winning_move(&self.position).is_some() {
                    "First"
                } else {
                    "Second"
                }
                .to_string(),
            ),
            Stage::Move => G::winning_move(&self.position).map(|mv| {
                let mut line = String::new();
                G::write_move(mv, &mut line);
                line
            }),
            Stage::Over => None,
        }
    }

    fn random_line(&self, seed: u64) -> Option<String> {
        match self.stage {
            Stage::Move => G::any_move(&self.position, &mut SeededRng::new(seed)).map(|mv| {
                let mut line = String::new();
                G::write_move(mv, &mut line);
                line
            }),
            _ => self.perfect_line(),
        }
    }

    fn finished(&self) -> bool {
        self.game == self.games.len()
    }

    fn transcript(&self) -> String {
        self.transcript.render()
    }
}

/// A bounded record of the lines exchanged.
#[derive(Debug, Default)]
struct Transcript {
    head: Vec<(Speaker, String)>,
    tail: std::collections::VecDeque<(Speaker, String)>,
    left_out: usize,
}

#[derive(Debug, Clone, Copy)]
enum Speaker {
    Judge,
    Program,
}

impl Transcript {
    fn push(&mut self, speaker: Speaker, line: &str) {
        let line = clip_chars(line, TRANSCRIPT_LINE_CHARS);
        if self.head.len() < TRANSCRIPT_ENDS {
            self.head.push((speaker, line));
            return;
        }
        if self.tail.len() == TRANSCRIPT_ENDS {
            self.tail.pop_front();
            self.left_out += 1;
        }
        self.tail.push_back((speaker, line));
    }

    fn render(&self) -> String {
        let write = |out: &mut String, (speaker, line): &(Speaker, String)| {
            out.push_str(match speaker {
                Speaker::Judge => "judge:   ",
                Speaker::Program => "program: ",
            });
            out.push_str(line);
            out.push('\n');
        };
        let mut out = String::new();
        self.head.iter().for_each(|entry| write(&mut out, entry));
        if self.left_out > 0 {
            out.push_str(&format!("… {} lines left out …\n", self.left_out));
        }
        self.tail.iter().for_each(|entry| write(&mut out, entry));
        out
    }
}

fn clip_chars(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// A piece of the program's line short enough to quote.
fn clip(text: &str) -> String {
    clip_chars(text, 40)
}

/// The seed of a testcase's losing-side replies: FNV-1a of its text, so the
/// same testcase always gets the same replies.
pub fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Who won a practice game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    /// The person playing.
    You,
    Judge,
}

/// What became of a practice move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PracticeTurn {
    /// The position after the person's move and the judge's reply.
    pub position: String,
    /// The judge's reply; `None` if it had none (or was not to move).
    pub judge_move: Option<String>,
    /// Set when the game is over.
    pub winner: Option<Winner>,
}

/// Why the player to move wins or loses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub mover_wins: bool,
    pub lines: Vec<String>,
    /// Every winning move, in the move format.
    pub winning_moves: Vec<String>,
}

/// A game played by a person, one move at a time (the practice page,
/// `nimjudge play`): text in, text out, nothing kept between calls, the
/// same judge as a testcase's.
pub trait Practice: Sync {
    /// The move format, for prompts.
    fn move_format(&self) -> &'static str;
    /// How a position is written, where it is not the base problem's input.
    fn position_format(&self) -> Option<&'static str>;
    /// A starting position, in the base problem's format.
    fn deal(&self, seed: u64) -> String;
    /// Why the player to move from `position` wins or loses.
    fn explain(&self, position: &str) -> Result<Explanation, String>;
    /// The judge moves first from `position` (the person plays second).
    fn judge_first(&self, position: &str, seed: u64) -> Result<PracticeTurn, String>;
    /// The person plays `mv` from `position`, then the judge replies
    /// (its losing-side moves drawn from `seed` and the position).
    fn play(&self, position: &str, mv: &str, seed: u64) -> Result<PracticeTurn, String>;
    /// Some legal move from `position`, drawn from `seed`; `None` if there
    /// is none.
    fn some_move(&self, position: &str, seed: u64) -> Result<Option<String>, String>;
}

/// A [`Game`] as a [`Practice`].
pub struct Practiced<G>(std::marker::PhantomData<fn() -> G>);

impl<G: Game> Practiced<G> {
    pub const NEW: Practiced<G> = Practiced(std::marker::PhantomData);

    fn parse(position: &str) -> Result<G::Position, String> {
        G::parse_position(position).map_err(|e| e.to_string())
    }

    fn text(position: &G::Position) -> String {
        let mut out = String::new();
        G::write_position(position, &mut out);
        out
    }

    /// The judge's reply from `position`, the person's turn after it.
    fn reply(mut position: G::Position, seed: u64) -> PracticeTurn {
        let mut rng = SeededRng::new(seed ^ seed_of(&Self::text(&position)));
        let chosen = G::winning_move(&position).or_else(|| G::any_move(&position, &mut rng));
        let Some(mv) = chosen else {
            return PracticeTurn {
                position: Self::text(&position),
                judge_move: None,
                winner: Some(Winner::You),
            };
        };
        G::play(&mut position, mv);
        let mut judge_move = String::new();
        G::write_move(mv, &mut judge_move);
        let stuck = G::any_move(&position, &mut rng).is_none();
        PracticeTurn {
            position: Self::text(&position),
            judge_move: Some(judge_move),
            winner: stuck.then_some(Winner::Judge),
        }
    }
}

impl<G: Game> Practice for Practiced<G> {
    fn move_format(&self) -> &'static str {
        G::MOVE_FORMAT
    }

    fn position_format(&self) -> Option<&'static str> {
        G::POSITION_FORMAT
    }

    /// A dealt position where the first player has a move (a game nobody
    /// can move in teaches nothing): deals again until it has one.
    fn deal(&self, seed: u64) -> String {
        let mut rng = SeededRng::new(seed);
        loop {
            let position = G::deal(&mut rng);
            if G::any_move(&position, &mut rng.clone()).is_some() {
                return Self::text(&position);
            }
        }
    }

    fn explain(&self, position: &str) -> Result<Explanation, String> {
        let position = Self::parse(position)?;
        let winning_moves = G::winning_moves(&position)
            .into_iter()
            .map(|mv| {
                let mut text = String::new();
                G::write_move(mv, &mut text);
                text
            })
            .collect();
        Ok(Explanation {
            mover_wins: G::winning_move(&position).is_some(),
            lines: G::explain(&position),
            winning_moves,
        })
    }

    fn judge_first(&self, position: &str, seed: u64) -> Result<PracticeTurn, String> {
        Ok(Self::reply(Self::parse(position)?, seed))
    }

    fn some_move(&self, position: &str, seed: u64) -> Result<Option<String>, String> {
        let position = Self::parse(position)?;
        Ok(G::any_move(&position, &mut SeededRng::new(seed)).map(|mv| {
            let mut text = String::new();
            G::write_move(mv, &mut text);
            text
        }))
    }

    fn play(&self, position: &str, mv: &str, seed: u64) -> Result<PracticeTurn, String> {
        let mut position = Self::parse(position)?;
        let mv = G::parse_move(mv.trim()).map_err(|why| format!("malformed move: {why}"))?;
        G::check_move(&position, mv).map_err(|why| format!("illegal move: {why}"))?;
        G::play(&mut position, mv);
        Ok(Self::reply(position, seed))
    }
}

/// Checks, by exhaustive search, that a game's judge plays as promised: over
/// every given start position, `winning_move` is `Some` exactly where the
/// mover wins, and playing it wins against every reply; `check_move`
/// accepts exactly the moves `moves` lists; `any_move` always gives one of
/// them; `winning_moves` lists exactly the moves to a losing position.
/// Returns the number of positions visited. Tests only.
#[cfg(test)]
pub fn check_strategy<G: Game>(
    starts: impl IntoIterator<Item = G::Position>,
    moves: impl Fn(&G::Position) -> Vec<G::Move>,
    candidates: impl Fn(&G::Position) -> Vec<G::Move>,
    mover_wins: impl Fn(&G::Position) -> bool,
) -> usize
where
    G::Position: Eq + std::hash::Hash,
{
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<G::Position> = starts.into_iter().collect();
    let mut rng = SeededRng::new(7);
    while let Some(position) = stack.pop() {
        if !seen.insert(position.clone()) {
            continue;
        }
        let legal = moves(&position);
        for candidate in candidates(&position) {
            assert_eq!(
                G::check_move(&position, candidate).is_ok(),
                legal.contains(&candidate),
                "check_move disagrees with the rules on {candidate:?} from {position:?}"
            );
        }
        match G::any_move(&position, &mut rng) {
            Some(mv) => assert!(
                legal.contains(&mv),
                "any_move gave {mv:?} from {position:?}"
            ),
            None => assert!(legal.is_empty(), "any_move found none from {position:?}"),
        }
        let wins = mover_wins(&position);
        let mut expected: Vec<G::Move> = legal
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = position.clone();
                G::play(&mut after, mv);
                !mover_wins(&after)
            })
            .collect();
        let mut listed = G::winning_moves(&position);
        let key = |mv: &G::Move| format!("{mv:?}");
        expected.sort_by_key(key);
        listed.sort_by_key(key);
        assert_eq!(listed, expected, "the winning moves from {position:?}");
        match G::winning_move(&position) {
            Some(mv) => {
                assert!(wins, "a winning move {mv:?} from the losing {position:?}");
                assert!(legal.contains(&mv), "illegal winning move {mv:?}");
                let mut after = position.clone();
                G::play(&mut after, mv);
                assert!(
                    !mover_wins(&after),
                    "{mv:?} from {position:?} leaves the opponent winning"
                );
                // Every reply of the opponent leads to a position the judge
                // is again to win from: visit them all.
                for reply in moves(&after) {
                    let mut next = after.clone();
                    G::play(&mut next, reply);
                    assert!(mover_wins(&next), "{reply:?} from {after:?}");
                    stack.push(next);
                }
            }
            None => assert!(!wins, "no winning move from the winning {position:?}"),
        }
    }
    seen.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_keeps_its_ends() {
        let mut transcript = Transcript::default();
        for i in 0..100 {
            transcript.push(Speaker::Judge, &i.to_string());
        }
        let text = transcript.render();
        assert!(text.starts_with("judge:   0\n"));
        assert!(text.contains("judge:   29\n… 40 lines left out …\njudge:   70\n"));
        assert!(text.ends_with("judge:   99\n"));
        assert_eq!(text.lines().count(), 61);
    }

    #[test]
    fn a_long_line_is_clipped_on_a_character_boundary() {
        let long = "é".repeat(500);
        let clipped = clip_chars(&long, TRANSCRIPT_LINE_CHARS);
        assert_eq!(clipped.chars().count(), TRANSCRIPT_LINE_CHARS + 1);
        assert!(clipped.ends_with('…'));
    }

    /// Plays `practice` from `position`, the person moving first with
    /// `choose`'s move, to the end; the winner.
    fn practise(
        practice: &dyn Practice,
        mut position: String,
        mut choose: impl FnMut(&str, &Explanation) -> String,
    ) -> Winner {
        for seed in 0.. {
            let explanation = practice.explain(&position).unwrap();
            let mv = choose(&position, &explanation);
            let turn = practice.play(&position, &mv, seed).unwrap();
            if let Some(winner) = turn.winner {
                return winner;
            }
            position = turn.position;
        }
        unreachable!("a game ends")
    }

    /// For every game offered for practice: following the explanation's
    /// winning moves wins from every dealt winning position (and from the
    /// judge's first reply to a losing one); a person who plays first from a
    /// losing position loses, whatever they play.
    #[test]
    fn following_the_hints_wins_and_a_losing_side_loses() {
        let practices: Vec<_> = crate::solver::solvers()
            .iter()
            .filter_map(|s| s.practice())
            .collect();
        assert!(!practices.is_empty());
        for practice in practices {
            let (mut won, mut lost) = (0, 0);
            for seed in 0..60 {
                let position = practice.deal(seed);
                let explanation = practice.explain(&position).unwrap();
                let hinted = |_: &str, e: &Explanation| e.winning_moves[0].clone();
                if explanation.mover_wins {
                    assert_eq!(practise(practice, position, hinted), Winner::You);
                    won += 1;
                } else {
                    let turn = practice.judge_first(&position, seed).unwrap();
                    assert_eq!(turn.winner, None, "{position}");
                    assert_eq!(practise(practice, turn.position, hinted), Winner::You);
                    // Playing first from the losing position loses, here
                    // with random legal moves.
                    let mut turn = seed;
                    let random = |position: &str, _: &Explanation| {
                        turn += 1;
                        practice.some_move(position, turn).unwrap().unwrap()
                    };
                    assert_eq!(practise(practice, position, random), Winner::Judge);
                    lost += 1;
                }
            }
            assert!(
                won > 5 && lost > 5,
                "{}: {won} won, {lost} lost",
                practice.move_format()
            );
        }
    }

    #[test]
    fn a_practice_move_is_checked() {
        let practice = crate::solver::find("nim-play").unwrap().practice().unwrap();
        assert_eq!(
            practice.play("2\n1 2\n", "3 1", 0).unwrap_err(),
            "illegal move: there is no pile 3 (the piles are 1 to 2)"
        );
        assert!(
            practice
                .play("2\n1 2\n", "x", 0)
                .unwrap_err()
                .starts_with("malformed move")
        );
        assert!(
            practice
                .explain("2\n1 2000\n")
                .unwrap_err()
                .contains("A_2 = 2000")
        );
        let explained = practice.explain("3\n3 5 7\n").unwrap();
        assert!(explained.mover_wins);
        assert!(explained.lines.iter().any(|l| l.contains("3 ⊕ 5 ⊕ 7 = 1")));
        assert_eq!(explained.winning_moves, vec!["1 1", "2 1", "3 1"]);
    }

    #[test]
    fn the_seed_depends_on_the_text() {
        assert_eq!(seed_of("1\n1\n3\n"), seed_of("1\n1\n3\n"));
        assert_ne!(seed_of("1\n1\n3\n"), seed_of("1\n1\n4\n"));
    }
}
