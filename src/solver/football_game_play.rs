//! `football-game-play`: POJ 2315 "Football Game", played against the
//! judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `football-game`'s input (`N M L
//! R`, then the distances `S_i`), within the same hosted domain (`M = 1`, or
//! every ball within one kick) and with `S_i ≤ 6,000`. The program must
//! first reduce the case to units exactly: ball `i` is `a_i = ⌈S_i/(2πR)⌉`
//! whole turns from the goal and one kick rolls a ball at most
//! `k = ⌊L/(2πR)⌋` turns. A move is `m i_1 t_1 … i_m t_m`: kick `1 ≤ m ≤ M`
//! distinct balls, ball `i_j` by `1 ≤ t_j ≤ min(k, a_{i_j})` turns. The
//! player with no move (every ball in, or `k = 0`) loses. A game ends
//! within `Σa_i ≤ 20 · 955 = 19,100` moves.
//!
//! The judge's winning move: with `M = 1` the game is Nim with a per-move
//! cap, a ball worth `a mod (k + 1)`; otherwise no ball is beyond one kick,
//! the cap never binds, and the game is Moore's Nim_M ([`moore_move`]).
//!
//! A game starts from the base problem's numbers ([`Game::write_start`]);
//! a position in play, which no integer distances describe any more, is
//! written in units: `N M k`, then `a_1 … a_N`.

use std::sync::Arc;

use super::{
    Outcome, Problem, SeededRng, TestKind,
    football_game::{CaseLimits, scan_case, whole_turns},
    input::{Field, InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, read_games},
    nim_k_play::{NimKPlay, NimKPosition, Takes, moore_move},
    outcome_lines, push_numbers,
};

pub const MAX_GAMES: usize = 10;
pub const MAX_N: usize = 20;
/// Kicks one move may make; also the size of [`Takes`].
pub const MAX_M: usize = 10;
pub const MAX_DISTANCE: u64 = 6000;

const LIMITS: CaseLimits = CaseLimits {
    n: MAX_N,
    m: MAX_M,
    distance: MAX_DISTANCE,
};

/// Practice positions: at most 6 balls of 15 turns, M ≤ 3, so that every
/// move can be tried for the explanation.
const PRACTICE: (usize, usize, u64) = (6, 3, 15);

pub struct FootballGamePlay;

/// The base problem's numbers of a starting position.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Start {
    pub limit: u64,
    pub radius: u64,
    pub distances: Vec<u64>,
}

/// A game in units: M, the kick cap k and each ball's turns to the goal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pitch {
    pub m: usize,
    pub cap: u64,
    pub balls: Vec<u64>,
    /// Where the game started from, if it came from a testcase.
    pub start: Option<Arc<Start>>,
}

impl Pitch {
    fn first_wins(&self) -> bool {
        self.winning_move().is_some()
    }

    fn winning_move(&self) -> Option<Takes> {
        if self.m == 1 {
            let modulus = self.cap + 1;
            let x = self.balls.iter().fold(0, |x, &a| x ^ (a % modulus));
            if x == 0 {
                return None;
            }
            let ball = self.balls.iter().position(|&a| (a % modulus) ^ x < a % modulus)?;
            let value = self.balls[ball] % modulus;
            return Some(Takes::new(&[(ball, value - (value ^ x))]));
        }
        moore_move(&NimKPosition {
            k: self.m as u64,
            piles: self.balls.clone(),
        })
    }

    /// Every legal move: every set of at most M balls, every kick (small
    /// positions only: practice and tests).
    fn all_moves(&self) -> Vec<Takes> {
        fn walk(pitch: &Pitch, from: usize, chosen: &mut Vec<(usize, u64)>, out: &mut Vec<Takes>) {
            if !chosen.is_empty() {
                out.push(Takes::new(chosen));
            }
            if chosen.len() == pitch.m {
                return;
            }
            for ball in from..pitch.balls.len() {
                for turns in 1..=pitch.balls[ball].min(pitch.cap) {
                    chosen.push((ball, turns));
                    walk(pitch, ball + 1, chosen, out);
                    chosen.pop();
                }
            }
        }
        let mut moves = Vec::new();
        walk(self, 0, &mut Vec::new(), &mut moves);
        moves
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FootballGamePlayInput {
    pub games: Vec<Pitch>,
}

fn scan_game(s: &mut Scanner<'_>, case: usize) -> Result<Pitch, InputError> {
    let mut start = Start {
        limit: 0,
        radius: 0,
        distances: Vec::new(),
    };
    let case = scan_case(s, case, &LIMITS, |limit, radius, distance| {
        start.limit = limit;
        start.radius = radius;
        start.distances.push(distance);
    })?;
    Ok(Pitch {
        m: case.balls_per_move(),
        cap: case.cap(),
        balls: case.piles().to_vec(),
        start: Some(Arc::new(start)),
    })
}

impl Game for FootballGamePlay {
    type Position = Pitch;
    type Move = Takes;
    const MOVE_FORMAT: &'static str =
        "m i_1 t_1 … i_m t_m (kick 1 ≤ m ≤ M distinct balls, ball i_j by t_j ≤ k turns)";
    const POSITION_FORMAT: Option<&'static str> =
        Some("N M k, then each ball's whole turns to the goal (k: the most turns one kick rolls)");

    fn write_position(pitch: &Pitch, out: &mut String) {
        push_numbers(out, [pitch.balls.len() as u64, pitch.m as u64, pitch.cap]);
        push_numbers(out, pitch.balls.iter().copied());
    }

    fn write_start(pitch: &Pitch, out: &mut String) {
        match &pitch.start {
            Some(start) => {
                push_numbers(
                    out,
                    [
                        start.distances.len() as u64,
                        pitch.m as u64,
                        start.limit,
                        start.radius,
                    ],
                );
                push_numbers(out, start.distances.iter().copied());
            }
            None => Self::write_position(pitch, out),
        }
    }

    fn parse_move(line: &str) -> Result<Takes, String> {
        NimKPlay::parse_move(line).map_err(|why| why.replace("from 1 to K", "from 1 to M"))
    }

    fn check_move(pitch: &Pitch, mv: Takes) -> Result<(), String> {
        if mv.list().len() > pitch.m {
            return Err(format!(
                "a move kicks at most M = {} balls, not {}",
                pitch.m,
                mv.list().len()
            ));
        }
        for (j, &(ball, turns)) in mv.list().iter().enumerate() {
            let Some(&left) = pitch.balls.get(ball) else {
                return Err(format!(
                    "there is no ball {} (the balls are 1 to {})",
                    ball.wrapping_add(1),
                    pitch.balls.len()
                ));
            };
            let i = ball + 1;
            if mv.list()[..j].iter().any(|&(other, _)| other == ball) {
                return Err(format!("ball {i} is named twice"));
            }
            if turns == 0 {
                return Err(format!("a kick rolls ball {i} at least one turn"));
            }
            if turns > pitch.cap {
                return Err(format!(
                    "a kick rolls a ball at most k = {} turns, not {turns}",
                    pitch.cap
                ));
            }
            if turns > left {
                return Err(format!("ball {i} is {left} turns from the goal, fewer than {turns}"));
            }
        }
        Ok(())
    }

    fn play(pitch: &mut Pitch, mv: Takes) {
        for &(ball, turns) in mv.list() {
            pitch.balls[ball] -= turns;
        }
    }

    fn write_move(mv: Takes, out: &mut String) {
        NimKPlay::write_move(mv, out);
    }

    fn winning_move(pitch: &Pitch) -> Option<Takes> {
        pitch.winning_move()
    }

    fn any_move(pitch: &Pitch, rng: &mut SeededRng) -> Option<Takes> {
        let mut open: Vec<usize> = (0..pitch.balls.len())
            .filter(|&i| pitch.balls[i] > 0)
            .collect();
        if open.is_empty() || pitch.cap == 0 {
            return None;
        }
        rng.shuffle(&mut open);
        let m = rng.range_usize(1, open.len().min(pitch.m));
        let kicks: Vec<(usize, u64)> = open[..m]
            .iter()
            .map(|&i| (i, rng.range(1, pitch.balls[i].min(pitch.cap))))
            .collect();
        Some(Takes::new(&kicks).sorted())
    }

    /// A position in units, `N M k` then `a_1 … a_N` (a ball in the goal is
    /// 0), small enough that every move can be tried, and in the hosted
    /// domain.
    fn parse_position(text: &str) -> Result<Pitch, InputError> {
        let (max_n, max_m, max_a) = PRACTICE;
        let mut s = Scanner::new(text);
        let n = s.usize(Field::new("N"), 1, max_n)?;
        let m = s.usize(Field::new("M"), 1, max_m.min(n))?;
        let cap = s.u64(Field::new("k"), 0, max_a)?;
        let mut balls = Vec::with_capacity(n);
        for i in 1..=n {
            let a = s.u64(Field::new("a_i").at(i), 0, max_a)?;
            if m > 1 && a > cap {
                return Err(InputError::Invalid {
                    line: s.line(),
                    message: format!(
                        "M = {m} and a_{i} = {a} exceeds k = {cap}: outside the hosted domain"
                    ),
                });
            }
            balls.push(a);
        }
        s.finish()?;
        Ok(Pitch {
            m,
            cap,
            balls,
            start: None,
        })
    }

    fn deal(rng: &mut SeededRng) -> Pitch {
        let n = rng.range_usize(3, 5);
        let m = rng.range_usize(1, 2);
        let cap = rng.range(2, 6);
        let most = if m == 1 { 15 } else { cap };
        Pitch {
            m,
            cap,
            balls: (0..n).map(|_| rng.range(1, most)).collect(),
            start: None,
        }
    }

    fn winning_moves(pitch: &Pitch) -> Vec<Takes> {
        if !pitch.first_wins() {
            return Vec::new();
        }
        pitch
            .all_moves()
            .into_iter()
            .filter(|&mv| {
                let mut after = pitch.clone();
                FootballGamePlay::play(&mut after, mv);
                !after.first_wins()
            })
            .collect()
    }

    fn explain(pitch: &Pitch) -> Vec<String> {
        let wins = pitch.first_wins();
        let mut lines = vec![
            "A testcase gives distances: ball i is a_i = ⌈S_i/(2πR)⌉ whole turns from the goal, and a kick rolls at most k = ⌊L/(2πR)⌋ turns (compute both exactly: a double's π is not enough near a multiple of 2πR).".to_string(),
        ];
        if pitch.m == 1 {
            let modulus = pitch.cap + 1;
            let values: Vec<String> = pitch
                .balls
                .iter()
                .map(|&a| format!("{a} → {}", a % modulus))
                .collect();
            lines.push(format!(
                "With one ball a move, this is Nim with at most k = {} a kick: a ball of a turns is worth a mod (k + 1) = a mod {modulus}.",
                pitch.cap
            ));
            lines.push(format!("The balls' values: {}.", values.join(", ")));
        } else {
            lines.push(format!(
                "Every ball is within one kick, so this is Moore's Nim_M with M = {}: write the turns in binary, and the player to move loses exactly when every bit's count is a multiple of M + 1 = {}.",
                pitch.m,
                pitch.m + 1
            ));
        }
        lines.push(if wins {
            "The player to move wins: move to a position the rule calls lost.".to_string()
        } else {
            "The player to move loses.".to_string()
        });
        lines
    }
}

impl Problem for FootballGamePlay {
    const ID: &'static str = "football-game-play";
    const INTERACTIVE: bool = true;
    type Input = FootballGamePlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<FootballGamePlayInput, InputError> {
        Ok(FootballGamePlayInput {
            games: read_games(text, MAX_GAMES, scan_game)?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &FootballGamePlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|pitch| Outcome::from_first_wins(pitch.first_wins()))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        // (games, N, largest R, smallest and largest S)
        let (count, max_n, max_r, low_s, high_s) = match kind {
            TestKind::Small => (6, 4, 3, 1, 40),
            TestKind::Edge => (4, MAX_N, 1, MAX_DISTANCE, MAX_DISTANCE),
            TestKind::Random => (6, MAX_N, 20, 1, MAX_DISTANCE),
            TestKind::Max => (MAX_GAMES, MAX_N, 1, MAX_DISTANCE / 2, MAX_DISTANCE),
        };
        let mut out = String::new();
        push_numbers(&mut out, [count as u64]);
        for index in 0..count {
            let n = match kind {
                TestKind::Max => max_n,
                TestKind::Edge => [1, max_n, max_n, 2][index],
                _ => rng.range_usize(1, max_n),
            };
            let radius = rng.range(1, max_r);
            let distances: Vec<u64> = (0..n).map(|_| rng.range(low_s, high_s)).collect();
            let farthest = distances.iter().copied().max().unwrap_or(1);
            // M ≥ 2 needs every ball within one kick: L at least one
            // circumference (under 7R) beyond the farthest ball.
            let (m, limit) = match (kind, index) {
                (TestKind::Edge, 0) => (1, 1),
                (TestKind::Edge, 1) => (MAX_M, 99_999_999),
                (TestKind::Edge, 2) => (1, 99_999_999),
                (TestKind::Edge, _) => (2, farthest + 7 * radius),
                _ if n >= 2 && rng.chance(1, 2) => {
                    (rng.range_usize(2, n.min(MAX_M)), farthest + 7 * radius)
                }
                _ => (1, rng.range(1, farthest + 7 * radius)),
            };
            debug_assert!(m == 1 || {
                let cap = whole_turns(limit, radius).unwrap_or(0);
                distances
                    .iter()
                    .all(|&s| whole_turns(s, radius).is_some_and(|t| t < cap))
            });
            push_numbers(&mut out, [n as u64, m as u64, limit, radius]);
            push_numbers(&mut out, distances);
        }
        out
    }

    fn referee(input: &FootballGamePlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<FootballGamePlay>::new(
            input.games.clone(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<FootballGamePlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{
        grundy::{WinLoseSearch, all_vectors},
        interactive::check_strategy,
    };

    /// Every move from the rules: every set of at most M balls not in the
    /// goal, each kicked 1 to min(k, a) turns.
    fn rule_moves(pitch: &Pitch) -> Vec<Takes> {
        let n = pitch.balls.len();
        let mut moves = Vec::new();
        for mask in 1u32..(1 << n) {
            let chosen: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
            if chosen.len() > pitch.m {
                continue;
            }
            let mut kicks: Vec<Vec<(usize, u64)>> = vec![Vec::new()];
            for &ball in &chosen {
                kicks = kicks
                    .into_iter()
                    .flat_map(|partial| {
                        (1..=pitch.balls[ball].min(pitch.cap)).map(move |t| {
                            let mut next = partial.clone();
                            next.push((ball, t));
                            next
                        })
                    })
                    .collect();
            }
            moves.extend(kicks.iter().map(|k| Takes::new(k)));
        }
        moves
    }

    fn candidates(pitch: &Pitch) -> Vec<Takes> {
        let n = pitch.balls.len();
        let mut moves = Vec::new();
        for ball in 0..=n {
            for t in 0..=pitch.cap + 2 {
                moves.push(Takes::new(&[(ball, t)]));
                moves.push(Takes::new(&[(ball, t), (ball + 1, 1)]));
                moves.push(Takes::new(&[(ball, t), (ball, 1)]));
            }
        }
        moves.push(Takes::new(&[(0, 1), (1, 1), (2, 1), (3, 1)]));
        moves
    }

    /// The two hosted domains, every small position: M = 1 with k = 0..4
    /// and up to three balls of 6 turns; M = 2, 3 with every ball within
    /// the cap k = 1..4, up to four balls. Against a search over kicks
    /// from the rules.
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let mut visited = 0;
        for m in 1..=3usize {
            for cap in 0..=4u64 {
                let most = if m == 1 { 6 } else { cap };
                if m > 1 && cap == 0 {
                    continue;
                }
                let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|p: &Pitch| {
                    rule_moves(p)
                        .into_iter()
                        .map(|mv| {
                            let mut next = p.clone();
                            FootballGamePlay::play(&mut next, mv);
                            next
                        })
                        .collect::<Vec<_>>()
                }));
                let sizes: Vec<usize> = if m == 1 { vec![1, 2, 3] } else { vec![m, 4] };
                let starts: Vec<Pitch> = sizes
                    .into_iter()
                    .flat_map(|n| all_vectors(n, most))
                    .map(|balls| Pitch {
                        m,
                        cap,
                        balls,
                        start: None,
                    })
                    .collect();
                visited += check_strategy::<FootballGamePlay>(
                    starts,
                    rule_moves,
                    candidates,
                    |p| search.borrow_mut().mover_wins(p),
                );
            }
        }
        assert!(visited > 2000, "{visited}");
    }

    /// The numbers travel as given; the game is in units.
    #[test]
    fn a_game_starts_from_distances_and_plays_in_turns() {
        let input = FootballGamePlay::parse("1\n2 1 30 1\n8 14\n").unwrap();
        let pitch = &input.games[0];
        // 2π ≈ 6.28: 8 and 14 are 2 and 3 turns away; one kick rolls 4.
        assert_eq!((pitch.m, pitch.cap, pitch.balls.clone()), (1, 4, vec![2, 3]));
        let mut start = String::new();
        FootballGamePlay::write_start(pitch, &mut start);
        assert_eq!(start, "2 1 30 1\n8 14\n");
        let mut now = String::new();
        FootballGamePlay::write_position(pitch, &mut now);
        assert_eq!(now, "2 1 4\n2 3\n");
        let check = |line: &str| {
            let mv = FootballGamePlay::parse_move(line)?;
            FootballGamePlay::check_move(pitch, mv)
        };
        assert_eq!(check("1 2 3"), Ok(()));
        assert_eq!(check("2 1 1 2 1").unwrap_err(), "a move kicks at most M = 1 balls, not 2");
        assert_eq!(check("1 1 3").unwrap_err(), "ball 1 is 2 turns from the goal, fewer than 3");
        assert_eq!(check("0").unwrap_err(), "m must be from 1 to M, not 0");
        let far = FootballGamePlay::parse("1\n1 1 7 1\n6000\n").unwrap();
        assert_eq!(
            FootballGamePlay::check_move(&far.games[0], Takes::new(&[(0, 2)])).unwrap_err(),
            "a kick rolls a ball at most k = 1 turns, not 2"
        );
        // Outside the hosted domain, as in `football-game`.
        let err = FootballGamePlay::parse("1\n2 2 10 1\n8 14\n").unwrap_err();
        assert!(err.to_string().contains("hosts football-game only where"), "{err}");
    }
}
