//! Head-to-head statistics of seat-swapped game pairs, as fastchess reports them
//! (`-report penta`), and the sequential probability ratio test (SPRT) that stops a match
//! as soon as it is clear whether A is at least `elo1` stronger than B or at most `elo0`.
//!
//! A pair is two games on one seed with the seats swapped; its outcome for A is one of five
//! (LL, LD, WL or DD, WD, WW: 0 to 2 points). Pairs are independent where single games are
//! not (the seed favours one seat), so the variance is taken over pairs.
//!
//! The log-likelihood ratio is the generalized SPRT of M. Van den Bergh ("Normalized Elo"
//! notes; fastchess's `model=logistic`): with p̂ the observed pair frequencies and s₀, s₁
//! the expected game scores of `elo0` and `elo1` (logistic Elo),
//! `LLR = N/2 · ln(σ₀² / σ₁²)`, where `σₖ² = Σ p̂ᵢ (aᵢ − sₖ)²` over the pair scores
//! aᵢ ∈ {0, ¼, ½, ¾, 1} (points per game). Wald's bounds: stop for H1 at
//! `ln((1 − β)/α)`, for H0 at `ln(β/(1 − α))`.

use serde::Serialize;

/// Counts of pair outcomes, from A's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Two losses.
    pub ll: u32,
    /// A loss and a draw.
    pub ld: u32,
    /// A win and a loss.
    pub wl: u32,
    /// Two draws.
    pub dd: u32,
    /// A win and a draw.
    pub wd: u32,
    /// Two wins.
    pub ww: u32,
}

/// Elo difference of A over B with its 95% error, and the likelihood of superiority.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Points per game of A.
    pub score: f64,
    /// Logistic Elo difference (infinite when one side won every game).
    pub diff: f64,
    /// Half the width of the 95% interval, in Elo.
    pub error95: f64,
    /// Probability that A is the stronger.
    pub los: f64,
}

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The game score of an Elo difference (logistic): [`crate::ratings::expected_score`].
pub use crate::ratings::expected_score as elo_to_score;

/// The Elo difference of a game score (logistic).
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Pentanomial {
    /// Add a pair: A's points in its two games (1 a win, ½ a draw, 0 a loss).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let decisive = |p: f64| p != 0.5;
        match (first + second, decisive(first) && decisive(second)) {
            (p, _) if p < 0.25 => self.ll += 1,
            (p, _) if p < 0.75 => self.ld += 1,
            (p, true) if p < 1.25 => self.wl += 1,
            (p, _) if p < 1.25 => self.dd += 1,
            (p, _) if p < 1.75 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// Frequencies of the pair scores 0, ¼, ½, ¾, 1 (points per game).
    fn frequencies(&self) -> [(f64, f64); 5] {
        let n = f64::from(self.pairs().max(1));
        [
            (0.0, f64::from(self.ll) / n),
            (0.25, f64::from(self.ld) / n),
            (0.5, f64::from(self.wl + self.dd) / n),
            (0.75, f64::from(self.wd) / n),
            (1.0, f64::from(self.ww) / n),
        ]
    }

    /// A's mean points per game.
    pub fn score(&self) -> f64 {
        self.frequencies().iter().map(|(a, p)| a * p).sum()
    }

    /// `Σ p̂ᵢ (aᵢ − s)²`: the variance of the pair score around `s`.
    fn spread(&self, s: f64) -> f64 {
        self.frequencies()
            .iter()
            .map(|(a, p)| p * (a - s) * (a - s))
            .sum()
    }

    /// The Elo estimate (none before the first pair).
    pub fn elo(&self) -> Option<EloEstimate> {
        let pairs = self.pairs();
        if pairs == 0 {
            return None;
        }
        let score = self.score();
        let stdev = (self.spread(score) / f64::from(pairs)).sqrt();
        let (lo, hi) = (score - Z95 * stdev, score + Z95 * stdev);
        let los = if stdev > 0.0 {
            0.5 * crate::ratings::erfc(-(score - 0.5) / (std::f64::consts::SQRT_2 * stdev))
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(EloEstimate {
            score,
            diff: score_to_elo(score),
            error95: (score_to_elo(hi.min(1.0)) - score_to_elo(lo.max(0.0))) / 2.0,
            los,
        })
    }
}

/// An SPRT: H0 "A is `elo0` stronger" against H1 "A is `elo1` stronger".
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Which hypothesis the test accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// A is at most `elo0` stronger.
    H0,
    /// A is at least `elo1` stronger.
    H1,
}

impl std::str::FromStr for Sprt {
    type Err = String;
    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any order; alpha and beta default to 0.05).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for item in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("`{item}`: expected KEY=VALUE"))?;
            let number: f64 = value
                .parse()
                .map_err(|_| format!("`{item}`: `{value}` is not a number"))?;
            match key {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => return Err(format!("`{key}`: use elo0, elo1, alpha and beta")),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("give elo0 and elo1, e.g. `elo0=0 elo1=10 alpha=0.05 beta=0.05`".into());
        };
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(format!(
                "alpha ({alpha}) and beta ({beta}) must be positive with a sum below 1"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl Sprt {
    /// Wald's bounds: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 over H0 given the pairs so far.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let n = pairs.pairs();
        if n == 0 {
            return 0.0;
        }
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        let (v0, v1) = (pairs.spread(s0), pairs.spread(s1));
        if v0 <= 0.0 || v1 <= 0.0 {
            // Every pair scored exactly s₀ or s₁: no evidence either way yet.
            return 0.0;
        }
        0.5 * f64::from(n) * (v0 / v1).ln()
    }

    /// The decision at this LLR, if any.
    pub fn decision(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn penta(ww: u32, wd: u32, wl: u32, dd: u32, ld: u32, ll: u32) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// fastchess's own SPRT tests (logistic model, pentanomial), to two decimals.
    #[test]
    fn llr_matches_fastchess() {
        let llr = sprt(0.5, 2.5).llr(&penta(246, 10037, 20279, 1000, 9863, 223));
        assert!((llr - -3.07).abs() < 0.005, "{llr}");
        let llr = sprt(0.0, 2.0).llr(&penta(821, 26678, 55003, 980, 26175, 871));
        assert!((llr - -4.98).abs() < 0.005, "{llr}");
    }

    #[test]
    fn wald_bounds_and_decisions() {
        let test = sprt(0.0, 10.0);
        let (lower, upper) = test.bounds();
        // ln(0.05 / 0.95) = −ln 19.
        assert!((lower + 19f64.ln()).abs() < 1e-12 && (upper - 19f64.ln()).abs() < 1e-12);
        assert!((upper - 2.944).abs() < 0.001);
        assert_eq!(test.decision(2.95), Some(Decision::H1));
        assert_eq!(test.decision(-2.95), Some(Decision::H0));
        assert_eq!(test.decision(0.0), None);
    }

    #[test]
    fn one_sided_results_decide_quickly_and_the_right_way() {
        let test = sprt(0.0, 10.0);
        // A wins both games of two pairs in three and splits the third: far above 10 Elo,
        // but a 10 Elo window needs evidence: 60 pairs give LLR 1.74, 120 pairs 3.48.
        let strong = |n: u32| penta(2 * n / 3, 0, n / 3, 0, 0, 0);
        assert!((test.llr(&strong(60)) - 1.7386).abs() < 1e-3);
        assert_eq!(test.decision(test.llr(&strong(60))), None);
        assert_eq!(test.decision(test.llr(&strong(120))), Some(Decision::H1));
        // The mirror image: far below 0 Elo.
        let weak = penta(0, 0, 40, 0, 0, 80);
        assert_eq!(test.decision(test.llr(&weak)), Some(Decision::H0));
        // Even results lean to H0 (0 Elo) but do not decide after 10 pairs.
        let even = penta(2, 1, 4, 0, 1, 2);
        let llr = test.llr(&even);
        assert!(llr < 0.0 && test.decision(llr).is_none(), "{llr}");
    }

    #[test]
    fn pairs_are_classified_by_both_games() {
        let mut p = Pentanomial::default();
        for (a, b) in [
            (1.0, 1.0),
            (1.0, 0.5),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.0, 0.5),
            (0.0, 0.0),
        ] {
            p.add_pair(a, b);
        }
        p.add_pair(0.0, 1.0);
        assert_eq!(p, penta(1, 1, 2, 1, 1, 1));
        assert_eq!(p.pairs(), 7);
    }

    #[test]
    fn elo_and_error_from_pairs() {
        // 4 pairs: WW, WL, WL, LL → score ½, 0 Elo; pair-score spread ⅛ (¼·¼ + ¼·¼).
        let p = penta(1, 0, 2, 0, 0, 1);
        let elo = p.elo().unwrap();
        assert!((elo.score - 0.5).abs() < 1e-12 && elo.diff.abs() < 1e-9);
        assert!((elo.los - 0.5).abs() < 1e-12);
        // σ = √(⅛ / 4) = 0.17678; the interval ½ ± 1.95996·σ = [0.15352, 0.84648].
        let expected = (score_to_elo(0.846_476) - score_to_elo(0.153_524)) / 2.0;
        assert!((elo.error95 - expected).abs() < 0.01, "{}", elo.error95);
        assert!((elo.error95 - 296.0).abs() < 1.0, "{}", elo.error95);
        // 76% is +200 Elo (logistic).
        assert!((score_to_elo(elo_to_score(200.0)) - 200.0).abs() < 1e-9);
        assert!((elo_to_score(200.0) - 0.759_746).abs() < 1e-6);
    }

    #[test]
    fn specs_parse_like_cutechess() {
        let test: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
        assert_eq!(test, sprt(0.0, 10.0));
        assert_eq!("elo1=5,elo0=-5".parse::<Sprt>().unwrap(), sprt(-5.0, 5.0));
        assert!(
            "elo0=10 elo1=0"
                .parse::<Sprt>()
                .unwrap_err()
                .contains("below")
        );
        assert!("elo0=0".parse::<Sprt>().unwrap_err().contains("elo1"));
        assert!("elo0=0 elo1=5 alpha=0.7 beta=0.5".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=5 gamma=1".parse::<Sprt>().is_err());
    }
}
