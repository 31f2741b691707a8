//! Ratings from game results: Bradley–Terry Elo with 95% error bars, and the likelihood of
//! superiority (LOS) of one bot over another.
//!
//! # Model
//!
//! Each player `i` has a strength `r_i` (natural-log units) and wins against `j` with
//! probability `σ(r_i − r_j) = 1 / (1 + e^{−(r_i − r_j)})` — the Bradley–Terry model, which
//! on the Elo scale (`elo = 400·log10(e)·r`) is exactly [`expected_score`]. A game's score
//! `s ∈ [0, 1]` counts as `s` of a win and `1 − s` of a loss, so a draw is half a win plus
//! half a loss (the standard treatment; no separate draw parameter).
//!
//! # Fit
//!
//! [`fit`] maximizes the log-likelihood plus a weak prior (below) by damped Newton steps:
//! the objective is strictly concave, so each step solves the observed-information system
//! by Cholesky and halves the step until the objective rises; it converges quadratically,
//! in a handful of iterations even when the MM iteration (Hunter 2004) would crawl.
//!
//! Games are first aggregated per pair of players — normalized to `(lower index, higher
//! index)`, sorted, and summed in that order — so the result depends only on the multiset
//! of games: reordering `games`, or swapping `a`/`b` with `1 − score_a`, gives bitwise
//! identical ratings.
//!
//! # Prior
//!
//! A player who won (or lost) everything has an infinite maximum-likelihood rating. As in
//! BayesElo and Ordo practice, [`fit`] therefore adds, for every player who has games,
//! [`FitOptions::prior_draws`] (default 1) *virtual draws* against a fixed virtual player of
//! average strength. That is a proper prior, so every rating is finite, and its pull is
//! that of one game: negligible once a player has played dozens. It also links otherwise
//! disconnected groups of players (who never met, directly or through others): their
//! ratings are then placed only by the prior, and their error bars say so.
//!
//! [`fit_with`] and `prior_draws: 0.0` give the plain maximum-likelihood fit, which exists
//! only when no group of players scored zero against the rest of its connected field
//! (Hunter's condition); otherwise it returns [`FitError::UnboundedWithoutPrior`]. Without
//! a prior, disconnected groups cannot be compared at all, so each is centered on the
//! anchor separately.
//!
//! # Anchor
//!
//! Ratings are reported with mean [`MEAN_ELO`] (1500) over the players who have games.
//! A player without games is rated exactly [`MEAN_ELO`] with no error bar (`None`).
//!
//! # Error bars
//!
//! [`Ratings::ci95`] is the ± half-width of a 95% normal interval for each rating
//! *relative to the mean* (the anchor). It comes from the observed Fisher information — the
//! negative Hessian `H` of the log-posterior at the optimum: the covariance of the ratings
//! is `H⁻¹` (with the prior; without it `H` is singular along "shift everyone" and we take
//! the pseudo-inverse, i.e. the covariance under the constraint that the mean is fixed),
//! projected onto deviations from the mean. The error bar of a *difference* between two
//! players is not the sum of theirs; use [`likelihood_of_superiority`] on their head-to-head
//! record for that question.
//!
//! # Example
//!
//! ```
//! use arena_tournament::ratings::{fit, GameScore};
//!
//! // Bot 0 beats bot 1 in 3 of 4 games; bot 2 never played.
//! let games = [
//!     GameScore { a: 0, b: 1, score_a: 1.0 },
//!     GameScore { a: 1, b: 0, score_a: 0.0 },
//!     GameScore { a: 0, b: 1, score_a: 1.0 },
//!     GameScore { a: 0, b: 1, score_a: 0.0 },
//! ];
//! let ratings = fit(3, &games);
//! assert!(ratings.elo[0] > 1500.0 && ratings.elo[1] < 1500.0);
//! assert_eq!((ratings.elo[2], ratings.ci95[2]), (1500.0, None));
//! ```

use serde::{Deserialize, Serialize};

/// The mean rating of the players who have games; also the rating of players who have none.
pub const MEAN_ELO: f64 = 1500.0;

/// Elo points per natural-log unit of strength: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Newton steps before giving up; the fit converges in well under 20 on real data.
const MAX_ITERATIONS: usize = 100;

/// Stop once no rating moves more than this (natural units; ≈ 2e-8 Elo). The step that
/// gets below it is still taken, and Newton's quadratic convergence leaves the result
/// exact to rounding.
const STEP_TOLERANCE: f64 = 1e-10;

/// One game's result between two players, by index into the caller's player list.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GameScore {
    /// The first player.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// `a`'s score against `b`: 1 for a win, 0.5 for a draw, 0 for a loss (any value in
    /// `[0, 1]` is accepted and counts as that fraction of a win).
    pub score_a: f64,
}

/// How [`fit_with`] fits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FitOptions {
    /// Virtual draws each player with games plays against a fixed virtual player of average
    /// strength (see the [module docs](self)). `1.0` by default; `0.0` for the plain
    /// maximum-likelihood fit, which may not exist.
    pub prior_draws: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self { prior_draws: 1.0 }
    }
}

/// Fitted ratings, indexed like the players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    /// Elo ratings, mean [`MEAN_ELO`] over the players with games.
    pub elo: Vec<f64>,
    /// ± half-width, in Elo, of each rating's 95% interval relative to the mean; `None` for
    /// a player without games (or, should the information matrix be numerically singular,
    /// for everyone).
    pub ci95: Vec<Option<f64>>,
    /// Newton iterations taken.
    pub iterations: usize,
}

/// Why [`fit_with`] could not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// Without a prior, some group of players scored nothing against the rest of the
    /// players connected to it, so the maximum-likelihood ratings run off to infinity.
    #[error(
        "without a prior the maximum-likelihood ratings are unbounded: player {player}, together \
         with everyone they scored against, never scored a point against the rest of the players \
         connected to them; fit with `prior_draws` > 0 (as `fit` does)"
    )]
    UnboundedWithoutPrior {
        /// A player of the group that scored nothing against the rest.
        player: usize,
    },
}

/// Fit Bradley–Terry Elo ratings of `players` players to `games` with the default weak
/// prior (one virtual draw against an average player each); see the [module docs](self).
///
/// # Panics
///
/// If a game names a player `>= players` or has a `score_a` outside `[0, 1]` (or NaN).
/// Games of a player against themselves carry no information and are ignored.
pub fn fit(players: usize, games: &[GameScore]) -> Ratings {
    fit_with(players, games, &FitOptions::default())
        .expect("with a positive prior the ratings are always bounded")
}

/// [`fit`] with explicit [`FitOptions`].
///
/// # Errors
///
/// [`FitError::UnboundedWithoutPrior`] when `prior_draws` is 0 and the maximum-likelihood
/// ratings do not exist; never when `prior_draws` > 0.
///
/// # Panics
///
/// As [`fit`], and if `prior_draws` is negative or not finite.
pub fn fit_with(
    players: usize,
    games: &[GameScore],
    options: &FitOptions,
) -> Result<Ratings, FitError> {
    let prior = options.prior_draws;
    assert!(
        prior.is_finite() && prior >= 0.0,
        "prior_draws must be finite and non-negative, not {prior}"
    );

    // Only players with games enter the fit; `rated[k]` is the k-th of them by index.
    let totals = aggregate(players, games);
    let mut local = vec![usize::MAX; players];
    for pair in &totals {
        local[pair.lo] = 0;
        local[pair.hi] = 0;
    }
    let rated: Vec<usize> = (0..players).filter(|&p| local[p] == 0).collect();
    for (k, &p) in rated.iter().enumerate() {
        local[p] = k;
    }
    let pairs: Vec<PairTotals> = totals
        .iter()
        .map(|t| PairTotals {
            lo: local[t.lo],
            hi: local[t.hi],
            ..*t
        })
        .collect();
    let edges: Vec<(usize, usize)> = pairs.iter().map(|pair| (pair.lo, pair.hi)).collect();
    let problem = Problem {
        size: rated.len(),
        components: components(rated.len(), &edges),
        pairs,
        prior,
    };
    if prior == 0.0 {
        problem
            .check_bounded()
            .map_err(|k| FitError::UnboundedWithoutPrior { player: rated[k] })?;
    }

    let (strength, iterations) = problem.maximize();
    let (strength, deviation_variance) = problem.center(strength);

    let mut elo = vec![MEAN_ELO; players];
    let mut ci95 = vec![None; players];
    for (k, &p) in rated.iter().enumerate() {
        elo[p] = MEAN_ELO + strength[k] * ELO_PER_NAT;
        ci95[p] = deviation_variance
            .as_ref()
            .map(|variance| Z95 * variance[k].max(0.0).sqrt() * ELO_PER_NAT);
    }
    Ok(Ratings {
        elo,
        ci95,
        iterations,
    })
}

/// The probability, in a Bayesian sense with a flat prior, that a player who won `wins` and
/// lost `losses` decisive games against another is the stronger of the two:
/// `½ + ½·erf((wins − losses) / √(2·(wins + losses)))` (the normal approximation used by
/// chess-engine testers). Draws carry no information about which is stronger and are left
/// out. With no decisive games it is ½.
///
/// # Panics
///
/// In debug builds, if `wins` or `losses` is negative or not finite.
pub fn likelihood_of_superiority(wins: f64, losses: f64) -> f64 {
    debug_assert!(
        wins.is_finite() && losses.is_finite() && wins >= 0.0 && losses >= 0.0,
        "wins and losses must be finite and non-negative, not {wins} and {losses}"
    );
    let decisive = wins + losses;
    if decisive <= 0.0 {
        return 0.5;
    }
    // ½(1 + erf(z)) = ½·erfc(−z), which stays accurate far into the tails.
    0.5 * erfc(-(wins - losses) / (2.0 * decisive).sqrt())
}

/// The expected score of a player rated `elo_diff` Elo above their opponent:
/// `1 / (1 + 10^(−elo_diff/400))`.
pub fn expected_score(elo_diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo_diff / 400.0))
}

/// All games between two players, oriented from the lower index.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PairTotals {
    lo: usize,
    hi: usize,
    /// Games played between them.
    games: f64,
    /// `lo`'s total score against `hi`.
    points_lo: f64,
}

/// Sum `games` per pair in a canonical order, so that the totals (and everything computed
/// from them) depend only on the multiset of games. Sorted by `(lo, hi)`.
fn aggregate(players: usize, games: &[GameScore]) -> Vec<PairTotals> {
    let mut oriented: Vec<(usize, usize, f64)> = games
        .iter()
        .filter_map(|game| {
            assert!(
                game.a < players && game.b < players,
                "game {game:?} names a player outside 0..{players}"
            );
            assert!(
                (0.0..=1.0).contains(&game.score_a),
                "game {game:?} has a score outside [0, 1]"
            );
            match game.a.cmp(&game.b) {
                std::cmp::Ordering::Less => Some((game.a, game.b, game.score_a)),
                std::cmp::Ordering::Greater => Some((game.b, game.a, 1.0 - game.score_a)),
                std::cmp::Ordering::Equal => None,
            }
        })
        .collect();
    oriented.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.total_cmp(&y.2)));

    let mut totals: Vec<PairTotals> = Vec::new();
    for (lo, hi, score) in oriented {
        match totals.last_mut() {
            Some(last) if last.lo == lo && last.hi == hi => {
                last.games += 1.0;
                last.points_lo += score;
            }
            _ => totals.push(PairTotals {
                lo,
                hi,
                games: 1.0,
                points_lo: score,
            }),
        }
    }
    totals
}

/// Connected components of the comparison graph, each a sorted list of players.
fn components(size: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut neighbours = vec![Vec::new(); size];
    for &(i, j) in edges {
        neighbours[i].push(j);
        neighbours[j].push(i);
    }
    let mut seen = vec![false; size];
    let mut result = Vec::new();
    for start in 0..size {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            for &neighbour in &neighbours[members[next]] {
                if !seen[neighbour] {
                    seen[neighbour] = true;
                    members.push(neighbour);
                }
            }
            next += 1;
        }
        members.sort_unstable();
        result.push(members);
    }
    result
}

/// The fit over the players with games (local indices `0..size`).
#[derive(Debug)]
struct Problem {
    size: usize,
    pairs: Vec<PairTotals>,
    prior: f64,
    components: Vec<Vec<usize>>,
}

impl Problem {
    /// The log-posterior: log-likelihood of the games plus, per player, `prior` virtual
    /// draws (½ win, ½ loss each) against a virtual player of strength 0.
    fn objective(&self, strength: &[f64]) -> f64 {
        let mut total = 0.0;
        for pair in &self.pairs {
            let diff = strength[pair.lo] - strength[pair.hi];
            total += pair.points_lo * log_sigmoid(diff)
                + (pair.games - pair.points_lo) * log_sigmoid(-diff);
        }
        if self.prior > 0.0 {
            for &r in strength {
                total += 0.5 * self.prior * (log_sigmoid(r) + log_sigmoid(-r));
            }
        }
        total
    }

    /// The gradient of [`Self::objective`] and the observed information (its negative
    /// Hessian, row-major).
    fn gradient_and_information(&self, strength: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = self.size;
        let mut gradient = vec![0.0; n];
        let mut information = vec![0.0; n * n];
        for pair in &self.pairs {
            let (i, j) = (pair.lo, pair.hi);
            let p = sigmoid(strength[i] - strength[j]);
            let surplus = pair.points_lo - pair.games * p;
            gradient[i] += surplus;
            gradient[j] -= surplus;
            let weight = pair.games * p * (1.0 - p);
            information[i * n + i] += weight;
            information[j * n + j] += weight;
            information[i * n + j] -= weight;
            information[j * n + i] -= weight;
        }
        if self.prior > 0.0 {
            for (i, &r) in strength.iter().enumerate() {
                let p = sigmoid(r);
                gradient[i] += self.prior * (0.5 - p);
                information[i * n + i] += self.prior * p * (1.0 - p);
            }
        }
        (gradient, information)
    }

    /// The information matrix made invertible. With a prior it already is. Without one it
    /// is singular exactly along "shift a component", and adding `J/n` per component (`J`
    /// all ones) fixes that without changing the solution orthogonal to the shifts: the
    /// inverse is then the pseudo-inverse plus `J/n` per component.
    fn regularized(&self, mut information: Vec<f64>) -> Vec<f64> {
        if self.prior == 0.0 {
            let n = self.size;
            for members in &self.components {
                let share = 1.0 / members.len() as f64;
                for &i in members {
                    for &j in members {
                        information[i * n + j] += share;
                    }
                }
            }
        }
        information
    }

    /// Damped Newton ascent from all-zero strengths; returns the optimum and the number of
    /// iterations.
    fn maximize(&self) -> (Vec<f64>, usize) {
        let mut strength = vec![0.0; self.size];
        let mut value = self.objective(&strength);
        let mut iterations = 0;
        while iterations < MAX_ITERATIONS {
            let (gradient, information) = self.gradient_and_information(&strength);
            let Some(factor) = Cholesky::new(self.regularized(information), self.size) else {
                break;
            };
            let step = factor.solve(&gradient);
            iterations += 1;
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            if largest < STEP_TOLERANCE {
                for (r, s) in strength.iter_mut().zip(&step) {
                    *r += s;
                }
                break;
            }
            // Halve the step until the objective rises (Armijo); Newton's full step is
            // accepted near the optimum. If no step helps, we are at rounding level.
            let slope: f64 = gradient.iter().zip(&step).map(|(g, s)| g * s).sum();
            let mut scale = 1.0;
            let mut accepted = None;
            for _ in 0..60 {
                let candidate: Vec<f64> = strength
                    .iter()
                    .zip(&step)
                    .map(|(r, s)| r + scale * s)
                    .collect();
                let candidate_value = self.objective(&candidate);
                if candidate_value >= value + 1e-4 * scale * slope {
                    accepted = Some((candidate, candidate_value));
                    break;
                }
                scale *= 0.5;
            }
            match accepted {
                Some((candidate, candidate_value)) => {
                    strength = candidate;
                    value = candidate_value;
                }
                None => break,
            }
        }
        (strength, iterations)
    }

    /// Shift the strengths to the anchor (mean 0: over all players with a prior, per
    /// component without) and return them with each one's variance relative to that mean,
    /// or `None` if the information matrix is numerically singular.
    fn center(&self, mut strength: Vec<f64>) -> (Vec<f64>, Option<Vec<f64>>) {
        let n = self.size;
        let groups: Vec<Vec<usize>> = if self.prior == 0.0 {
            self.components.clone()
        } else {
            vec![(0..n).collect()]
        };
        for members in &groups {
            let mean = members.iter().map(|&i| strength[i]).sum::<f64>() / members.len() as f64;
            for &i in members {
                strength[i] -= mean;
            }
        }

        let (_, information) = self.gradient_and_information(&strength);
        let Some(factor) = Cholesky::new(self.regularized(information), n) else {
            return (strength, None);
        };
        let mut covariance = factor.inverse();
        if self.prior == 0.0 {
            // Back from the regularized inverse to the pseudo-inverse.
            for members in &self.components {
                let share = 1.0 / members.len() as f64;
                for &i in members {
                    for &j in members {
                        covariance[i * n + j] -= share;
                    }
                }
            }
        }
        // Var(r_i − mean) = Σ_ii − 2·mean_j Σ_ij + mean_jk Σ_jk over the anchor's group.
        // Without a prior each group's covariance already has zero row sums.
        let mut variance = vec![0.0; n];
        for members in &groups {
            let count = members.len() as f64;
            let row_means: Vec<f64> = members
                .iter()
                .map(|&i| members.iter().map(|&j| covariance[i * n + j]).sum::<f64>() / count)
                .collect();
            let grand_mean = row_means.iter().sum::<f64>() / count;
            for (&i, row_mean) in members.iter().zip(&row_means) {
                variance[i] = covariance[i * n + i] - 2.0 * row_mean + grand_mean;
            }
        }
        (strength, Some(variance))
    }

    /// Without a prior the maximum-likelihood ratings exist iff, within each component, the
    /// directed graph "i scored against j" is strongly connected (Hunter 2004, assumption
    /// 1). Otherwise returns a player of a group that scored nothing against the rest.
    fn check_bounded(&self) -> Result<(), usize> {
        let mut scored_against = vec![Vec::new(); self.size];
        let mut conceded_to = vec![Vec::new(); self.size];
        for pair in &self.pairs {
            if pair.points_lo > 0.0 {
                scored_against[pair.lo].push(pair.hi);
                conceded_to[pair.hi].push(pair.lo);
            }
            if pair.games - pair.points_lo > 0.0 {
                scored_against[pair.hi].push(pair.lo);
                conceded_to[pair.lo].push(pair.hi);
            }
        }
        for members in &self.components {
            let start = members[0];
            // If `start` cannot reach everyone, `start`'s reach scored nothing outside it.
            let forward = reachable(start, &scored_against, self.size);
            if members.iter().any(|&i| !forward[i]) {
                return Err(start);
            }
            // If someone cannot reach `start`, their reach scored nothing outside it.
            let backward = reachable(start, &conceded_to, self.size);
            if let Some(&stuck) = members.iter().find(|&&i| !backward[i]) {
                return Err(stuck);
            }
        }
        Ok(())
    }
}

/// Which nodes `start` reaches along `edges`.
fn reachable(start: usize, edges: &[Vec<usize>], size: usize) -> Vec<bool> {
    let mut seen = vec![false; size];
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(node) = stack.pop() {
        for &next in &edges[node] {
            if !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    seen
}

/// `1 / (1 + e^{−x})`, without overflow for large `|x|`.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln σ(x) = −ln(1 + e^{−x})`, accurate for large `|x|`.
fn log_sigmoid(x: f64) -> f64 {
    -((-x).max(0.0) + (-x.abs()).exp().ln_1p())
}

/// The Cholesky factor `L` (row-major, lower) of a symmetric positive-definite matrix.
#[derive(Debug)]
struct Cholesky {
    lower: Vec<f64>,
    size: usize,
}

impl Cholesky {
    /// `None` if `matrix` is not (numerically) positive definite.
    fn new(matrix: Vec<f64>, size: usize) -> Option<Self> {
        let n = size;
        let mut lower = matrix;
        for j in 0..n {
            let mut diagonal = lower[j * n + j];
            for k in 0..j {
                diagonal -= lower[j * n + k] * lower[j * n + k];
            }
            if !(diagonal > 0.0 && diagonal.is_finite()) {
                return None;
            }
            let pivot = diagonal.sqrt();
            lower[j * n + j] = pivot;
            for i in j + 1..n {
                let mut value = lower[i * n + j];
                for k in 0..j {
                    value -= lower[i * n + k] * lower[j * n + k];
                }
                lower[i * n + j] = value / pivot;
            }
            for k in j + 1..n {
                lower[j * n + k] = 0.0;
            }
        }
        Some(Self { lower, size })
    }

    /// `x` with `L Lᵀ x = b`.
    fn solve(&self, b: &[f64]) -> Vec<f64> {
        let (n, l) = (self.size, &self.lower);
        let mut x = b.to_vec();
        for i in 0..n {
            for k in 0..i {
                x[i] -= l[i * n + k] * x[k];
            }
            x[i] /= l[i * n + i];
        }
        for i in (0..n).rev() {
            for k in i + 1..n {
                x[i] -= l[k * n + i] * x[k];
            }
            x[i] /= l[i * n + i];
        }
        x
    }

    /// `(L Lᵀ)⁻¹`, row-major.
    fn inverse(&self) -> Vec<f64> {
        let n = self.size;
        let mut inverse = vec![0.0; n * n];
        let mut unit = vec![0.0; n];
        for column in 0..n {
            unit[column] = 1.0;
            let solved = self.solve(&unit);
            unit[column] = 0.0;
            for (row, value) in solved.into_iter().enumerate() {
                inverse[row * n + column] = value;
            }
        }
        inverse
    }
}

/// Below this, [`erf`] sums its power series; above, [`erfc`] uses its continued fraction
/// (about 190 terms at the switch, fewer beyond). Chosen by measurement against a correctly
/// rounded `erf`/`erfc` over `[0, 6]`: erf within 2 ulps, erfc within ~20 ulps relative.
const ERF_SERIES_LIMIT: f64 = 1.0;

/// The error function to within a few ulps.
///
/// For `|x| < 1` it sums `erf x = 2/√π · e^{−x²} · Σ 2ⁿ x^{2n+1} / (1·3·…·(2n+1))`, whose
/// terms are all positive (no cancellation, unlike the alternating Taylor series); beyond,
/// it is `1 − erfc |x|` with the sign of `x`.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let magnitude = x.abs();
    if magnitude >= ERF_SERIES_LIMIT {
        return (1.0 - erfc_continued_fraction(magnitude)).copysign(x);
    }
    let square = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > sum.abs() * f64::EPSILON * 0.25 {
        n += 1.0;
        term *= 2.0 * square / (2.0 * n + 1.0);
        sum += term;
    }
    sum * std::f64::consts::FRAC_2_SQRT_PI * (-square).exp()
}

/// The complementary error function `1 − erf x`, accurate in the right tail too.
pub(crate) fn erfc(x: f64) -> f64 {
    if x >= ERF_SERIES_LIMIT {
        erfc_continued_fraction(x)
    } else {
        // For x < 1 the result is > 0.15, so the subtraction costs at most a few ulps.
        1.0 - erf(x)
    }
}

/// `erfc x` for `x ≥ 1` from its continued fraction
/// `erfc x = e^{−x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`, by modified Lentz.
fn erfc_continued_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut fraction = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..=500 {
        let a = 0.5 * f64::from(k);
        d = x + a * d;
        if d.abs() < TINY {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c.abs() < TINY {
            c = TINY;
        }
        let delta = c * d;
        fraction *= delta;
        if (delta - 1.0).abs() < f64::EPSILON {
            break;
        }
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_PRIOR: FitOptions = FitOptions { prior_draws: 0.0 };

    fn game(a: usize, b: usize, score_a: f64) -> GameScore {
        GameScore { a, b, score_a }
    }

    /// `wins` wins, `draws` draws and `losses` losses of `a` against `b`.
    fn record(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<GameScore> {
        let mut games = vec![game(a, b, 1.0); wins];
        games.extend(vec![game(a, b, 0.5); draws]);
        games.extend(vec![game(a, b, 0.0); losses]);
        games
    }

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    fn mean(values: &[f64]) -> f64 {
        values.iter().sum::<f64>() / values.len() as f64
    }

    /// A mixed 5-player data set with wins, draws, losses, a repeated pair and a self-game.
    fn mixed_games() -> Vec<GameScore> {
        let mut games = Vec::new();
        games.extend(record(0, 1, 7, 3, 2));
        games.extend(record(2, 1, 4, 1, 6));
        games.extend(record(0, 2, 5, 0, 5));
        games.extend(record(3, 0, 1, 2, 9));
        games.extend(record(3, 4, 6, 2, 1));
        games.extend(record(4, 1, 2, 2, 2));
        games.push(game(2, 2, 1.0));
        games.push(game(4, 2, 0.25));
        games
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values from a correctly rounded implementation (glibc / mpmath).
        for (x, expected) in [
            (0.01, 0.011283415555849616),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (0.9999, 0.8426592780487595),
            (1.0001, 0.8427422995485203),
            (2.4999, 0.9995928300996666),
            (3.0, 0.9999779095030014),
        ] {
            close(erf(x), expected, 3e-16);
            close(erf(-x), -expected, 3e-16);
        }
        assert_eq!(erf(0.0), 0.0);
        assert_eq!(erf(10.0), 1.0);
    }

    #[test]
    fn erfc_is_accurate_in_the_tail() {
        for (x, expected) in [
            (-1.0, 1.842700792949715),
            (0.9999, 0.15734072195124052),
            (1.0, 0.15729920705028513),
            (2.5, 0.0004069520174449589),
            (3.0, 2.2090496998585438e-05),
            (5.0, 1.5374597944280351e-12),
            (10.0, 2.088487583762545e-45),
        ] {
            close(erfc(x) / expected, 1.0, 1e-14);
        }
    }

    #[test]
    fn expected_score_is_the_logistic_elo_curve() {
        assert_eq!(expected_score(0.0), 0.5);
        close(expected_score(400.0), 10.0 / 11.0, 1e-15);
        close(expected_score(-400.0), 1.0 / 11.0, 1e-15);
        close(expected_score(400.0 * 3f64.log10()), 0.75, 1e-15);
        close(expected_score(123.0) + expected_score(-123.0), 1.0, 1e-15);
    }

    #[test]
    fn likelihood_of_superiority_values() {
        assert_eq!(likelihood_of_superiority(0.0, 0.0), 0.5);
        assert_eq!(likelihood_of_superiority(7.0, 7.0), 0.5);
        // 0.5 + 0.5·erf(10/√20) = 0.5 + 0.5·erf(√5).
        let ten_nil = likelihood_of_superiority(10.0, 0.0);
        assert!(ten_nil > 0.99);
        close(ten_nil, 0.9992172988709987, 1e-15);
        close(likelihood_of_superiority(0.0, 10.0), 1.0 - ten_nil, 1e-15);
        // 0.5 + 0.5·erf(1/√2·…): 60 wins, 40 losses → z = 20/√200 = √2.
        close(
            likelihood_of_superiority(60.0, 40.0),
            0.5 + 0.5 * 0.9544997361036416,
            1e-15,
        );
        // Deep in the tail the result stays a meaningful probability, not 0.
        let hopeless = likelihood_of_superiority(0.0, 200.0);
        assert!(hopeless > 0.0 && hopeless < 1e-40);
    }

    #[test]
    fn two_players_match_the_closed_form_without_prior() {
        // A scores 75% over 40 games: the MLE difference is 400·log10(0.75/0.25).
        let games = record(0, 1, 30, 0, 10);
        let ratings = fit_with(2, &games, &NO_PRIOR).unwrap();
        let difference = ratings.elo[0] - ratings.elo[1];
        close(difference, 400.0 * 3f64.log10(), 1e-9);
        close(mean(&ratings.elo), MEAN_ELO, 1e-9);
        close(expected_score(difference), 0.75, 1e-12);
        // Var(d) = 1/(n·p·(1−p)) = 1/7.5; each rating is d/2 from the mean.
        let half_width = Z95 * (1.0 / 30.0f64).sqrt() * ELO_PER_NAT;
        close(ratings.ci95[0].unwrap(), half_width, 1e-9);
        close(ratings.ci95[1].unwrap(), half_width, 1e-9);
    }

    #[test]
    fn the_prior_pulls_two_players_only_slightly_together() {
        let ratings = fit(2, &record(0, 1, 30, 0, 10));
        let difference = ratings.elo[0] - ratings.elo[1];
        let unbiased = 400.0 * 3f64.log10();
        assert!(
            difference < unbiased && difference > unbiased - 10.0,
            "{difference}"
        );
        close(mean(&ratings.elo), MEAN_ELO, 1e-9);
        // The data and prior are symmetric under swapping the players and negating the
        // strengths, so the virtual player sits at the mean. At the optimum A's real and
        // virtual points then equal A's expected score against B and the virtual player.
        let a = difference / 2.0 / ELO_PER_NAT;
        close(30.0 + 0.5, 40.0 * sigmoid(2.0 * a) + sigmoid(a), 1e-9);
    }

    #[test]
    fn draws_count_as_half_a_win_and_half_a_loss() {
        let with_draws = fit(2, &record(0, 1, 20, 20, 0));
        let decisive = fit(2, &record(0, 1, 30, 0, 10));
        assert_eq!(with_draws, decisive);
    }

    #[test]
    fn recovers_the_ratings_that_generated_expected_scores() {
        // Fractional scores equal to the model's expectation make the truth the exact MLE.
        let truth = [-300.0, -50.0, 100.0, 250.0];
        let mut games = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let score = expected_score(truth[a] - truth[b]);
                games.extend(vec![game(a, b, score); 10]);
            }
        }
        let ratings = fit_with(4, &games, &NO_PRIOR).unwrap();
        for (fitted, true_elo) in ratings.elo.iter().zip(truth) {
            close(*fitted, MEAN_ELO + true_elo, 1e-6);
        }
        assert!(ratings.iterations < 20, "{} iterations", ratings.iterations);
    }

    #[test]
    fn three_players_rank_transitively() {
        let mut games = record(0, 1, 12, 4, 4);
        games.extend(record(1, 2, 12, 4, 4));
        games.extend(record(0, 2, 15, 3, 2));
        let ratings = fit(3, &games);
        assert!(ratings.elo[0] > ratings.elo[1] && ratings.elo[1] > ratings.elo[2]);
        close(mean(&ratings.elo), MEAN_ELO, 1e-9);
    }

    #[test]
    fn swapping_sides_changes_nothing() {
        let games = mixed_games();
        let swapped: Vec<GameScore> = games
            .iter()
            .map(|g| game(g.b, g.a, 1.0 - g.score_a))
            .collect();
        assert_eq!(fit(5, &games), fit(5, &swapped));
    }

    #[test]
    fn game_order_changes_nothing() {
        let games = mixed_games();
        let expected = fit(5, &games);
        let mut shuffled = games.clone();
        shuffled.reverse();
        assert_eq!(fit(5, &shuffled), expected);
        // A seeded Fisher–Yates shuffle (xorshift), several times over.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..5 {
            for i in (1..shuffled.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                shuffled.swap(i, (state % (i as u64 + 1)) as usize);
            }
            assert_eq!(fit(5, &shuffled), expected);
        }
    }

    #[test]
    fn error_bars_halve_with_four_times_the_games() {
        let few = fit_with(2, &record(0, 1, 30, 0, 10), &NO_PRIOR).unwrap();
        let many = fit_with(2, &record(0, 1, 120, 0, 40), &NO_PRIOR).unwrap();
        close(many.ci95[0].unwrap() / few.ci95[0].unwrap(), 0.5, 1e-9);

        let mut few_games = mixed_games();
        few_games.retain(|g| g.a != g.b);
        let many_games: Vec<GameScore> = few_games.iter().flat_map(|&g| [g; 4]).collect();
        let (few, many) = (fit(5, &few_games), fit(5, &many_games));
        for player in 0..5 {
            let ratio = many.ci95[player].unwrap() / few.ci95[player].unwrap();
            assert!(
                (0.45..0.55).contains(&ratio),
                "player {player}: ratio {ratio}"
            );
        }
    }

    #[test]
    fn a_perfect_score_gets_a_finite_rating() {
        let mut games = record(0, 1, 10, 0, 0);
        games.extend(record(1, 2, 5, 2, 3));
        let ratings = fit(3, &games);
        assert!(ratings.elo.iter().all(|elo| elo.is_finite()));
        assert!(ratings.ci95.iter().all(|ci| ci.is_some_and(f64::is_finite)));
        assert!(ratings.elo[0] > ratings.elo[1] && ratings.elo[1] > ratings.elo[2]);
        // A perfect 10-0 is worth a lot, but not an absurd amount.
        assert!(ratings.elo[0] - ratings.elo[1] < 800.0);

        assert_eq!(
            fit_with(3, &games, &NO_PRIOR),
            Err(FitError::UnboundedWithoutPrior { player: 1 })
        );
        assert_eq!(
            fit_with(2, &record(1, 0, 0, 0, 3), &NO_PRIOR),
            Err(FitError::UnboundedWithoutPrior { player: 1 })
        );
    }

    #[test]
    fn a_player_without_games_sits_at_the_anchor() {
        let games = record(0, 2, 6, 2, 4);
        let ratings = fit(3, &games);
        assert_eq!(ratings.elo[1], MEAN_ELO);
        assert_eq!(ratings.ci95[1], None);
        // The others are rated exactly as without the idle player.
        let alone = fit(2, &record(0, 1, 6, 2, 4));
        assert_eq!(
            (ratings.elo[0], ratings.elo[2]),
            (alone.elo[0], alone.elo[1])
        );
        assert_eq!(
            (ratings.ci95[0], ratings.ci95[2]),
            (alone.ci95[0], alone.ci95[1])
        );

        let nobody = fit(2, &[game(1, 1, 1.0)]);
        assert_eq!(nobody.elo, vec![MEAN_ELO; 2]);
        assert_eq!(nobody.ci95, vec![None; 2]);
        assert_eq!(fit(0, &[]).elo, Vec::<f64>::new());
    }

    #[test]
    fn disconnected_groups_are_placed_by_the_prior() {
        // Two groups that never met, with the same internal result.
        let mut games = record(0, 1, 15, 0, 5);
        games.extend(record(2, 3, 15, 0, 5));
        let ratings = fit(4, &games);
        close(ratings.elo[0], ratings.elo[2], 1e-9);
        close(ratings.elo[1], ratings.elo[3], 1e-9);
        close(mean(&ratings.elo), MEAN_ELO, 1e-9);

        // Linking the groups by games between them makes everyone's placement surer.
        let mut linked = games.clone();
        linked.extend(record(0, 2, 5, 10, 5));
        linked.extend(record(1, 3, 5, 10, 5));
        let linked = fit(4, &linked);
        for player in 0..4 {
            assert!(linked.ci95[player].unwrap() < ratings.ci95[player].unwrap());
        }

        // Without a prior each group is centered on its own.
        let separate = fit_with(4, &games, &NO_PRIOR).unwrap();
        let half = 200.0 * 3f64.log10();
        for (player, offset) in [(0, half), (1, -half), (2, half), (3, -half)] {
            close(separate.elo[player], MEAN_ELO + offset, 1e-9);
        }
    }

    #[test]
    #[should_panic(expected = "outside 0..2")]
    fn an_unknown_player_is_a_bug() {
        fit(2, &[game(0, 2, 1.0)]);
    }

    #[test]
    #[should_panic(expected = "score outside [0, 1]")]
    fn a_score_above_one_is_a_bug() {
        fit(2, &[game(0, 1, 2.0)]);
    }
}
