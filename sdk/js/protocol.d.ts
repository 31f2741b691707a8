// The protocol's types, generated from the Rust SDK's types (sdk/src/*.rs) by
// tests/js_sdk.rs: do not edit; regenerate with
// ARENA_UPDATE_DOCS=1 cargo test -p arena-tests --test js_sdk
// The API (arena.playBattle, …) is in arena.d.ts.

declare namespace arena {
  /** Sent once when a match is over. */
  interface MatchEnd {
    /** The result for the receiving bot. */
    result: MatchResult;
    /** Why the match ended, in words (e.g. "team destroyed", "turn cap"). */
    reason: string;
  }

  /**
   * How a match ended, from one bot's point of view.
   *
   * `win`: This bot won.
   *
   * `draw`: Nobody won.
   *
   * `loss`: This bot lost.
   */
  type MatchResult = "win" | "draw" | "loss";

  /** Sent once when a match begins. */
  interface MatchStart<R = unknown> {
    /** ABI version of the host. */
    abi: number;
    /** The mode being played. */
    mode: Mode;
    /** This bot's seat (0 or 1). */
    seat: number;
    /** A seed for the bot's own randomness (bots have no other source of randomness). */
    seed: number;
    /** The rules in force. */
    rules: R;
  }

  /**
   * The game modes of the arena.
   *
   * `battle`: Bot Wars: teams of three robots.
   *
   * `tcg`: Trading card game: heroes, mana and a 20-card deck.
   *
   * `grid`: JS Battle: teams of heroes on a board with mines and wells.
   *
   * `dungeon`: RPG battle system: a hero party against seeded waves of monsters.
   *
   * `conquest`: Little Battle: resources, recruiting, rock-paper-scissors armies, home bases.
   */
  type Mode = "battle" | "tcg" | "grid" | "dungeon" | "conquest";

  /** Mode battle: docs/rules/battle.md. */
  namespace battle {
    /**
     * A bot's answer on its unit's turn.
     *
     * `attack`: Attack the enemy unit `target`.
     *
     * `skill`: Use the acting unit's secondary skill (all skills target the unit itself or its team).
     */
    type Action =
      | {
        attack: {
          /** One of `Observation::legal_targets`. */
          target: number;
        };
      }
      | "skill";

    /** An effect on a unit. */
    interface ActiveEffect {
      /** Which effect. */
      effect: Effect;
      /** Turns of the bearer until it expires. */
      turns_left: number;
      /** For continuous damage and bombs: the inflicter's power; for continuous repair: the amount repaired per turn; otherwise 0. */
      magnitude: number;
    }

    /**
     * The eight robot types of sprints 1–2.
     *
     * `aggro`: Aggro Bot: damage dealer.
     *
     * `stealth`: Stealth Bot: fast, evasive.
     *
     * `glass`: Glass Bot: huge power, little integrity.
     *
     * `tank`: Tank Bot: taunts and soaks.
     *
     * `beaverette`: Beaverette Bot: team buffer.
     *
     * `kamikaze`: Kamikaze Bot: bombs the whole enemy team.
     *
     * `nurse`: Nurse Bot: repairs the team.
     *
     * `doctor`: Doctor Bot: redistributes integrity.
     */
    type BotType =
      | "aggro"
      | "stealth"
      | "glass"
      | "tank"
      | "beaverette"
      | "kamikaze"
      | "nurse"
      | "doctor";

    /**
     * The effects of sprint 2, negative and positive.
     *
     * `defense_down`: Armor and resistance −50%.
     *
     * `offense_down`: Power −25%.
     *
     * `continuous_damage`: Loses the inflicter's power in integrity each turn (armor does not help).
     *
     * `bomb`: Explodes on expiry: random(0.5..1) × inflicter's power − armor.
     *
     * `speed_down`: Turn meter fills 25% slower.
     *
     * `stun`: Skips its turns and cannot evade.
     *
     * `defense_up`: Armor and resistance +50%.
     *
     * `offense_up`: Damage caused +50%.
     *
     * `speed_up`: Speed +25%.
     *
     * `taunt`: Enemies must target this unit.
     *
     * `stealth`: Not targetable while others are; +30% damage.
     *
     * `retribution`: Counter-attacks when attacked and surviving.
     *
     * `continuous_repair`: Repairs 10% of the nurse's maximum integrity each turn.
     */
    type Effect =
      | "defense_down"
      | "offense_down"
      | "continuous_damage"
      | "bomb"
      | "speed_down"
      | "stun"
      | "defense_up"
      | "offense_up"
      | "speed_up"
      | "taunt"
      | "stealth"
      | "retribution"
      | "continuous_repair";

    /** What a bot sees on one of its units' turns. */
    interface Observation {
      /** The number of this unit turn in the match, counting from 1 (this turn included). */
      turn: number;
      /** The turn cap of the rules. */
      turn_cap: number;
      /** The receiving bot's seat. */
      seat: number;
      /** The unit whose turn it is (one of the bot's own). */
      acting: number;
      /** All six units. */
      units: Unit[];
      /** Enemy units the acting unit may attack (taunt and stealth applied). */
      legal_targets: number[];
      /** Whether `Action::Skill` is allowed now. */
      skill_ready: boolean;
      /** Why this bot's previous action was rejected, if it was. */
      last_rejected: string | null;
    }

    /** The rules configuration of `battle`. */
    interface Rules {
      /** The types a player may pick from (default: all eight), unless its seat has its own (`roster0`, `roster1`). */
      roster: BotType[];
      /** Seat 0's own pool, when it has one (the document: "both players have their own pool of Bots"); absent: `roster`. */
      roster0?: BotType[] | null;
      /** Seat 1's own pool; absent: `roster`. */
      roster1?: BotType[] | null;
      /** The game ends after this many unit turns (attacks, skills and stunned turns); see docs/rules/battle.md for the tiebreak. */
      turn_cap: number;
    }

    /** Sent once before play: choose a team of three from the roster, blind. */
    interface SetupRequest {
      /** The types available. */
      roster: BotType[];
      /** The base stats of each type in `roster`, same order. */
      stats: Stats[];
      /** How many robots to pick (3). */
      team_size: number;
    }

    /** Base stats of one robot type, straight from the document's tables. */
    interface Stats {
      /** Integrity (hit points) when undamaged. */
      integrity: number;
      /** Damage potential. */
      power: number;
      /** Added to the turn meter every tick. */
      speed: number;
      /** Subtracted from incoming damage. */
      armor: number;
      /** Chance in percent to evade an attack completely. */
      evasion: number;
      /** Chance in percent to deal double damage. */
      critical: number;
      /** Chance in percent to resist a negative effect. */
      resistance: number;
      /** Chance in percent that an attack tries to inflict the type's negative effect (0: none). */
      effectivity: number;
    }

    /** A team: distinct types from the roster. */
    interface TeamChoice {
      /** The chosen types, in the order they are placed. */
      team: BotType[];
    }

    /** One unit as seen during play. */
    interface Unit {
      /** Its index in `Observation::units`. */
      id: number;
      /** The seat of the player who owns it. */
      owner: number;
      /** Its type. */
      kind: BotType;
      /** Base stats (effects not applied). */
      base: Stats;
      /** Current integrity; 0 means destroyed. */
      integrity: number;
      /** Current effective armor, power, speed and resistance (effects applied). */
      armor: number;
      /** See `armor`. */
      power: number;
      /** See `armor`. */
      speed: number;
      /** See `armor`. */
      resistance: number;
      /** Turn meter (a unit acts when it reaches 1000). */
      turn_meter: number;
      /** Own turns until the secondary skill can be used again (0: ready). Types without a skill always show 0 and `has_skill: false`. */
      cooldown: number;
      /** Whether the type has a secondary skill. */
      has_skill: boolean;
      /** Active effects. */
      effects: ActiveEffect[];
      /** Destroyed units stay in the list (ids are stable) but take no part. */
      destroyed: boolean;
    }

    /** A battle bot: what `arena.playBattle` takes. */
    interface Bot extends arena.Bot<Rules, SetupRequest, TeamChoice, Observation, Action> {}
  }

  /** Mode tcg: docs/rules/tcg.md. */
  namespace tcg {
    /**
     * A bot's answer on its turn.
     *
     * `play_card`: Play the hand card with uid `card`.
     *
     * `attack`: Attack with the own minion `minion`.
     *
     * `end_turn`: End the turn.
     */
    type Action =
      | {
        play_card: {
          /** The card's uid (see `CardInstance::uid`). */
          card: number;
          /** Spell (default), minion or heal; ignored for healing and drawer cards. */
          as: PlayAs;
          /** For a damage spell: the enemy hero (default) or an enemy minion; otherwise ignored. */
          target: Target;
        };
      }
      | {
        attack: {
          /** The attacker's id. */
          minion: number;
          /** The enemy hero or an enemy minion. */
          target: Target;
        };
      }
      | "end_turn";

    /** A card of the pool. The amount that matters is the one named by `kind`; the others are 0. In JSON the zero amounts are left out; the binary encoding, which has no field names, always carries all six fields (see the hand-written `Serialize`). */
    interface Card {
      /** Short kebab-case name, used in decks and deck files ("fireball"). */
      id: string;
      /** What it does. */
      kind: CardKind;
      /** Mana it costs. */
      cost: number;
      /** Damage dealt as a spell; attack and health as a minion. */
      damage?: number;
      /** Health restored. */
      heal?: number;
      /** Cards drawn. */
      draw?: number;
    }

    /** A card in a hand or deck: one physical copy, with an id unique in the match. */
    interface CardInstance {
      /** Unique in the match; a minion keeps its card's uid as its id. */
      uid: number;
      /** What the card is. */
      card: Card;
    }

    /**
     * What a card does when played as a spell.
     *
     * `damage`: Deals `damage` to the enemy hero or an enemy minion (or becomes a minion).
     *
     * `heal`: Restores `heal` health to the own hero (variation "healing").
     *
     * `draw`: Draws `draw` cards (variation "card drawers").
     */
    type CardKind = "damage" | "heal" | "draw";

    /** The cards decks are built from, with the deck-building limits. */
    interface CardPool {
      /** The cards available. */
      cards: Card[];
      /** Cards in a deck. */
      deck_size: number;
      /** Copies of one card a deck may hold. */
      max_copies: number;
    }

    /** A bot's deck choice. `{}` or `{"deck": null}` takes the default deck. */
    interface DeckChoice {
      /** Card ids from the pool, exactly `deck_size` of them. */
      deck?: string[] | null;
    }

    /** One hero as everyone sees it. */
    interface Hero {
      /** Current health; 0 or below loses. */
      health: number;
      /** Unspent mana (0 outside the hero's own turn). */
      mana: number;
      /** Mana slots. */
      mana_slots: number;
      /** Cards left in the deck. */
      deck_size: number;
      /** Cards in hand. */
      hand_size: number;
    }

    /** A minion on the board. */
    interface Minion {
      /** Its id (the uid of the card it was played from). */
      id: number;
      /** Who owns it. */
      owner: number;
      /** The card it was played from. */
      card: string;
      /** Damage it deals when attacking or defending. */
      attack: number;
      /** Current health. */
      health: number;
      /** Played this turn: it cannot attack yet (it still defends). */
      asleep: boolean;
      /** It may attack now (owner's turn, awake, not attacked yet this turn). */
      can_attack: boolean;
    }

    /** What a bot sees each time it is asked for an action on its turn. */
    interface Observation {
      /** The current turn (1-based; both players' turns are counted). */
      turn: number;
      /** The turn cap of the rules. */
      turn_cap: number;
      /** The receiving bot's seat. */
      seat: number;
      /** Both heroes, indexed by seat. */
      heroes: [Hero, Hero];
      /** The bot's own hand. */
      hand: CardInstance[];
      /** Every minion on the board, in the order they were played. */
      board: Minion[];
      /** Every legal action now (`Action::EndTurn` is always one). */
      legal: Action[];
      /** Why this bot's previous answer was rejected, if it was. */
      last_rejected: string | null;
    }

    /**
     * How a damage card is played.
     *
     * `spell`: Immediate damage to the target (healing and drawing for those card kinds).
     *
     * `minion`: A minion with attack and health equal to the card's damage (variation 4).
     *
     * `heal`: Heal the own hero by the card's damage (`any_card_heals`).
     */
    type PlayAs = "spell" | "minion" | "heal";

    /** The rules configuration of `tcg`. The defaults are the document's basic and special rules; each advanced variation is a switch. */
    interface Rules {
      /** Health each hero starts with, and the most healing can restore to (30). */
      starting_health: number;
      /** Mana slots stop growing here (10). */
      max_mana: number;
      /** Cards in each opening hand (3). */
      opening_hand: number;
      /** The second player gets one more opening card (a Hearthstone habit; off: the document deals 3 each and tournaments swap seats). */
      second_player_extra_card: boolean;
      /** Pick the first player at random (off: seat 0 starts, tournaments swap seats). */
      random_first_player: boolean;
      /** Hand size limit for overload (5). */
      max_hand: number;
      /** Special rule "bleeding out": 1 damage instead of a draw from an empty deck. */
      bleeding_out: boolean;
      /** Special rule "overload": a card drawn into a full hand is discarded (off: no limit). */
      overload: boolean;
      /** Variation 1: cards may have damage (and healing) different from their cost. */
      separate_damage: boolean;
      /** Variation 2: healing cards are allowed. */
      healing: boolean;
      /** Variation 2, alternative: any damage card may be played to heal its damage instead. */
      any_card_heals: boolean;
      /** Variation 3: card drawer cards are allowed. */
      card_drawers: boolean;
      /** Variation 4: damage cards may be played as minions. */
      minions: boolean;
      /** Minions a player may have on the board at once (7). */
      max_minions: number;
      /** Variation 5: each bot builds its deck from the pool. */
      custom_decks: boolean;
      /** Cards in a deck (20). */
      deck_size: number;
      /** Copies of one card a custom deck may hold (4: the document's deck has four 3s). */
      max_copies: number;
      /** The card pool. Cards of a variation that is off are left out (see `Rules::allows`). */
      pool: Card[];
      /** The deck both players use without custom decks, and the deck of a bot that does not choose a valid one (card ids; default: the document's deck). */
      deck: string[];
      /** Seat 0's own deck (card ids; `arena play --deck0 FILE`, or a tournament bot's `deck`), in place of `deck` for that seat; absent: `deck`. */
      deck0?: string[] | null;
      /** Seat 1's own deck; absent: `deck`. */
      deck1?: string[] | null;
      /** The game ends after this many turns (both players' turns counted); higher health wins, equal health is a draw. */
      turn_cap: number;
    }

    /** Sent once before play. Without custom decks the answer is ignored (answer `{}`). */
    interface SetupRequest {
      /** The receiving bot's seat. */
      seat: number;
      /** The seat that plays the first turn. */
      first_player: number;
      /** Whether a deck choice is wanted (custom decks are on). */
      choose_deck: boolean;
      /** The cards in use (build decks from these). */
      pool: CardPool;
      /** The deck used when no valid deck is chosen (and by everyone without custom decks). */
      default_deck: string[];
    }

    /**
     * Who an attack or damage spell hits: `"hero"` (the enemy hero) or `{"minion": id}`.
     *
     * `hero`: The enemy hero.
     *
     * `minion`: An enemy minion.
     */
    type Target = "hero" | { minion: number };

    /** A tcg bot: what `arena.playTcg` takes. */
    interface Bot extends arena.Bot<Rules, SetupRequest, DeckChoice, Observation, Action> {}
  }

  /** Mode grid: docs/rules/grid.md. */
  namespace grid {
    /**
     * A bot's answer on its hero's turn.
     *
     * `north`: Step (or act) north.
     *
     * `east`: Step (or act) east.
     *
     * `south`: Step (or act) south.
     *
     * `west`: Step (or act) west.
     *
     * `stay`: Do not move (adjacent enemies are still damaged).
     */
    type Action = "north" | "east" | "south" | "west" | "stay";

    /** One hero as seen during play. */
    interface Hero {
      /** Its index in `Observation::heroes`. */
      id: number;
      /** Its team (the seat of the bot that moves it). */
      team: number;
      /** Health, 0..=100; 0 exactly when dead. */
      health: number;
      /** Where it stands (dead heroes: where they died). */
      pos: Pos;
      /** Dead heroes stay in the list (ids are stable) but take no turns. */
      dead: boolean;
    }

    /** The owner of one diamond mine. */
    interface Mine {
      /** The hero who captured it last, if any. Ownership outlives the owner's death (a dead owner earns nothing) until someone captures the mine. */
      owner: number | null;
      /** The owner's team. */
      team: number | null;
    }

    /** What a bot sees on one of its heroes' turns: the whole dynamic state. */
    interface Observation {
      /** Hero turns played so far (this turn's number, from 0). */
      turn: number;
      /** The turn limit of the rules. */
      turn_limit: number;
      /** The receiving bot's team. */
      team: number;
      /** The hero whose turn it is (one of the bot's own, alive). */
      acting: number;
      /** Every hero, by id. */
      heroes: Hero[];
      /** Every mine's owner, by `MineId`. */
      mines: Mine[];
      /** Graves not yet robbed (walkable; stepping on one robs it). */
      graves: Pos[];
      /** Diamonds the receiving bot's team has earned. */
      diamonds: number;
      /** Diamonds the other team has earned. */
      enemy_diamonds: number;
      /** Why this bot's previous answer was rejected, if it was. */
      last_rejected: string | null;
    }

    /** A tile's coordinates: `x` is the column, growing east (0 is the west edge, the left column), `y` the row, growing south (0 is the north edge, the top row). */
    interface Pos {
      /** Column, from the west edge. */
      x: number;
      /** Row, from the north edge. */
      y: number;
    }

    /** The rules configuration of `grid`. */
    interface Rules {
      /** The map itself, in the text format of docs/rules/grid.md (so a rules config is self-contained). Default: `DEFAULT_MAP`. */
      map: string;
      /** Heroes per team (default 5). */
      heroes_per_team: number;
      /** The game ends after this many hero turns (default 1250; turns of dead heroes are skipped, not counted). */
      turn_limit: number;
    }

    /** The answer to the setup request: `grid` has nothing to choose, so it is `{}`. */
    interface SetupChoice {
    }

    /** Sent once before play: the static board. */
    interface SetupRequest {
      /** Columns of the board. */
      width: number;
      /** Rows of the board. */
      height: number;
      /** Impassable tiles. */
      walls: Pos[];
      /** Diamond mines; the index is the `MineId`. */
      mines: Pos[];
      /** Health wells. */
      wells: Pos[];
      /** Heroes per team. */
      heroes_per_team: number;
      /** The receiving bot's team (equal to its seat). */
      team: number;
      /** Hero turns after which the game ends. */
      turn_limit: number;
    }

    /** A grid bot: what `arena.playGrid` takes. */
    interface Bot extends arena.Bot<Rules, SetupRequest, SetupChoice, Observation, Action> {}
  }

  /** Mode dungeon: docs/rules/dungeon.md. */
  namespace dungeon {
    /**
     * Every ability of heroes and monsters.
     *
     * `fight`: Everyone: damage equal to strength.
     *
     * `shield_slam`: Warrior, 5 MP: 1.5 × strength.
     *
     * `reckless_charge`: Warrior, 4 HP: 2 × strength.
     *
     * `fireball`: Mage, 8 MP: 6 + 0.5 × intelligence.
     *
     * `frostbolt`: Mage, 3 MP: 3 + level.
     *
     * `heal`: Cleric, 4 MP: heals constitution (damages the undead).
     *
     * `smite`: Cleric, 7 MP: 4 + 0.5 × (intelligence + constitution).
     *
     * `backstab`: Rogue, free, only on an undamaged target: 2 × strength.
     *
     * `rapid_strike`: Rogue, 5 MP: 4 + speed.
     *
     * `tail_swipe`: Dragons: strength + speed.
     *
     * `fire_breath`: Red dragon: 2.5 × intelligence.
     *
     * `poison_breath`: Green dragon: 1.5 × (intelligence + constitution).
     *
     * `life_drain`: Undead: 1.5 × intelligence, healing the user as much.
     *
     * `bite`: Vampire: 0.5 × speed, healing the vampire as much and lowering the target's maxhp.
     *
     * `bash`: Skeleton: 2 × strength.
     *
     * `slash`: Humanoids: strength + speed.
     *
     * `regenerate`: Troll: restores constitution hit points to itself.
     *
     * `blood_rage`: Orc: 2 × strength, and 0.5 × constitution to itself.
     *
     * `unknown`: Any name that is not an ability (answered by a bot): always an `InvalidCommand`.
     */
    type Ability =
      | "fight"
      | "shield_slam"
      | "reckless_charge"
      | "fireball"
      | "frostbolt"
      | "heal"
      | "smite"
      | "backstab"
      | "rapid_strike"
      | "tail_swipe"
      | "fire_breath"
      | "poison_breath"
      | "life_drain"
      | "bite"
      | "bash"
      | "slash"
      | "regenerate"
      | "blood_rage"
      | "unknown";

    /** A bot's answer on its hero's turn: use `ability` on `target`. */
    interface Action {
      /** The ability (one of the acting hero's class). */
      ability: Ability;
      /** The target: a living monster for a damaging ability, any living unit for `heal`. */
      target: Target;
    }

    /**
     * A hero class.
     *
     * `warrior`: Strong and durable: `shield_slam`, `reckless_charge`.
     *
     * `mage`: Spells: `fireball`, `frostbolt`.
     *
     * `cleric`: Healer: `heal`, `smite`.
     *
     * `rogue`: Fast: `backstab`, `rapid_strike`.
     */
    type Class = "warrior" | "mage" | "cleric" | "rogue";

    /** What a class looks like at the run's starting level. */
    interface ClassInfo {
      /** The class. */
      class: Class;
      /** Its stats. */
      stats: Stats;
      /** Its maxhp. */
      max_hp: number;
      /** Its maxmp. */
      max_mp: number;
      /** Its abilities. */
      abilities: Ability[];
    }

    /**
     * A monster family.
     *
     * `dragon`: Base HP 100, constitution ×2, damage reduction 5, `tail_swipe`.
     *
     * `undead`: Constitution ×0.25, hurt by healing, `life_drain`.
     *
     * `humanoid`: `slash`.
     */
    type Family = "dragon" | "undead" | "humanoid";

    /** A hero as seen during play. */
    interface Hero {
      /** Its index in the party. */
      id: number;
      /** Its name in event lines: class and party position from 1 ("Mage2"). */
      name: string;
      /** Its class. */
      class: Class;
      /** Current level. */
      level: number;
      /** XP towards the next level. */
      xp: number;
      /** Current stats. */
      stats: Stats;
      /** Current hit points (0 when dead). */
      hp: number;
      /** Maximum hit points. */
      max_hp: number;
      /** Current magic points. */
      mp: number;
      /** Maximum magic points. */
      max_mp: number;
      /** Dead heroes stay in the list (ids are stable) but never act again. */
      dead: boolean;
    }

    /** A monster as seen during play. */
    interface Monster {
      /** Its index in the wave. */
      id: number;
      /** Its name in event lines: type and position in the wave from 1 ("Orc3"). */
      name: string;
      /** Its type. */
      kind: MonsterKind;
      /** Its family. */
      family: Family;
      /** Its level. */
      level: number;
      /** Its stats. */
      stats: Stats;
      /** Current hit points (0 when dead). */
      hp: number;
      /** Maximum hit points. */
      max_hp: number;
      /** XP every living hero gains when it dies. */
      xp_value: number;
      /** Its command queue, the next ability first. */
      queue: Ability[];
      /** Dead monsters stay in the list (ids are stable) but never act again. */
      dead: boolean;
    }

    /**
     * A monster type.
     *
     * `red_dragon`: Dragon: strength ×2, intelligence ×1.5, `fire_breath`.
     *
     * `green_dragon`: Dragon: strength ×1.5, speed ×1.5, `poison_breath`.
     *
     * `vampire`: Undead: intelligence ×2, base HP 30, `bite`.
     *
     * `skeleton`: Undead: strength ×1.25, speed ×0.5, intelligence ×0.25, `bash`.
     *
     * `troll`: Humanoid: strength ×1.75, constitution ×1.5, base HP 20, `regenerate`.
     *
     * `orc`: Humanoid: strength ×1.75, base HP 16, `blood_rage`.
     */
    type MonsterKind = "red_dragon" | "green_dragon" | "vampire" | "skeleton" | "troll" | "orc";

    /** What a bot sees on one of its heroes' turns. */
    interface Observation {
      /** The current wave, from 1. */
      wave: number;
      /** Waves in the dungeon. */
      waves: number;
      /** Hero turns this bot has played before this one. */
      turn: number;
      /** The hero whose turn it is. */
      acting: number;
      /** The party, by id. */
      party: Hero[];
      /** The current wave's monsters, by id. */
      monsters: Monster[];
      /** The initiative queue after the acting hero: who acts next, in order. */
      initiative: Target[];
      /** The event lines since this bot's previous turn (the first turn: since the run began). */
      events: string[];
      /** Every command the rules accept now. */
      legal: Action[];
      /** The score so far. */
      score: Score;
      /** Why this bot's previous answer was rejected, if it was. */
      last_rejected: string | null;
    }

    /** The rules configuration of `dungeon`. */
    interface Rules {
      /** Heroes in a party (default 4, 1 to 8). */
      party_size: number;
      /** The heroes' level when the run begins (default 1). */
      hero_level: number;
      /** Waves in the dungeon (default 10). */
      waves: number;
      /** The monsters' level in the first wave; each wave is one level higher (default 1). */
      first_wave_level: number;
      /** Monsters in the first wave (default 2). */
      first_wave_size: number;
      /** Monsters in a wave at most; a wave has one more monster every second wave (default 5). */
      max_wave_size: number;
      /** Hero turns a bot may play in its run; the run ends when they are used up (default 1000). */
      turn_limit: number;
    }

    /** How a run is ranked: more waves cleared, then more XP, then fewer hero turns. */
    interface Score {
      /** Waves whose monsters all died. */
      waves_cleared: number;
      /** XP gained by all heroes together. */
      xp: number;
      /** Hero turns played. */
      turns: number;
    }

    /** The answer to the setup request: the party's classes, in order (duplicates allowed). */
    interface SetupChoice {
      /** One class per hero. */
      party: Class[];
    }

    /** Sent once before play: choose a party for the dungeon ahead. */
    interface SetupRequest {
      /** Heroes to choose (exactly this many). */
      party_size: number;
      /** The heroes' starting level. */
      hero_level: number;
      /** The classes at that level. */
      classes: ClassInfo[];
      /** The whole dungeon: every wave's monsters, in order (the same for both bots). */
      waves: WaveMonster[][];
      /** Hero turns the run may last. */
      turn_limit: number;
    }

    /** The four stats every unit has. */
    interface Stats {
      /** Strength: `fight` and most physical abilities. */
      strength: number;
      /** Constitution: hit points, `heal`, `regenerate`. */
      constitution: number;
      /** Intelligence: magic points and spells. */
      intelligence: number;
      /** Speed: initiative (faster acts first), `rapid_strike`, `bite`, `tail_swipe`, `slash`. */
      speed: number;
    }

    /**
     * A unit on the battlefield: a hero of the party or a monster of the current wave, by its index in `Observation::party` or `Observation::monsters`.
     *
     * `hero`: A hero of the party.
     *
     * `monster`: A monster of the current wave.
     */
    type Target = { hero: number } | { monster: number };

    /** One monster of a wave, as announced before play. */
    interface WaveMonster {
      /** Its type. */
      kind: MonsterKind;
      /** Its level. */
      level: number;
    }

    /** A dungeon bot: what `arena.playDungeon` takes. */
    interface Bot extends arena.Bot<Rules, SetupRequest, SetupChoice, Observation, Action> {}
  }

  /** Mode conquest: docs/rules/conquest.md. */
  namespace conquest {
    /** An army on the map. */
    interface Army {
      /** Its id. */
      id: number;
      /** Its player's seat. */
      owner: number;
      /** Its type. */
      kind: Kind;
      /** Where it stands. */
      pos: Pos;
    }

    /**
     * The four types of soldiers.
     *
     * `spearman`: S: 1 wood, 1 food; counters the knight.
     *
     * `archer`: A: 1 wood, 1 gold; counters the spearman.
     *
     * `knight`: K: 1 food, 1 gold; counters the archer.
     *
     * `scout`: T: 1 wood, 1 food, 1 gold; moves one or two steps in a straight line; loses to all.
     */
    type Kind = "spearman" | "archer" | "knight" | "scout";

    /** Move the army standing on `from` to `to`. */
    interface Move {
      /** The army's tile when the order is carried out. */
      from: Pos;
      /** Its destination. */
      to: Pos;
    }

    /** What a bot sees on its turn: the whole current state. */
    interface Observation {
      /** The current year (617 first). */
      year: number;
      /** The last year that is played (the game ends after it). */
      last_year: number;
      /** The receiving bot's seat. */
      seat: number;
      /** Columns. */
      width: number;
      /** Rows. */
      height: number;
      /** Home bases of seat 0 and seat 1. */
      homes: [Pos, Pos];
      /** Water tiles. */
      water: Pos[];
      /** Wood tiles not yet collected. */
      wood: Pos[];
      /** Food tiles not yet collected. */
      food: Pos[];
      /** Gold tiles not yet collected. */
      gold: Pos[];
      /** Every army of both players, by id. */
      armies: Army[];
      /** The receiving bot's resources. */
      resources: Resources;
      /** The price list. */
      prices: Price[];
      /** Why orders of this bot's previous turn were skipped, one line per skipped order. */
      last_rejected: string[];
    }

    /** A bot's answer on its turn: the recruit stage's orders, then the move stage's, each carried out in order. An order that breaks a rule is skipped (and reported back in the next observation's `last_rejected`); the others still happen. A refused order costs nothing: a turn carries out up to 4 recruits and 1 024 moves, and reads up to 256 refused orders of each stage besides (docs/rules/conquest.md). `{}` passes; an unknown field is a malformed answer (a `wrong_shape` fault), not a pass. */
    interface Orders {
      /** Recruit orders. */
      recruit: Recruit[];
      /** Move orders. */
      moves: Move[];
    }

    /** A tile's coordinates: `x` is the column, growing east (0 is the west edge, the left column), `y` the row, growing south (0 is the north edge, the top row). */
    interface Pos {
      /** Column, from the west edge. */
      x: number;
      /** Row, from the north edge. */
      y: number;
    }

    /** One line of the price list. */
    interface Price {
      /** The type. */
      kind: Kind;
      /** What it costs. */
      cost: Resources;
    }

    /** Recruit one army of `kind` onto `at` (one of the four tiles next to the home base). */
    interface Recruit {
      /** The type. */
      kind: Kind;
      /** Where it is placed. */
      at: Pos;
    }

    /** An amount of each resource (a player's stock, or a price). */
    interface Resources {
      /** Wood. */
      wood: number;
      /** Food. */
      food: number;
      /** Gold. */
      gold: number;
    }

    /** The rules configuration of `conquest`. */
    interface Rules {
      /** The map file's text (docs/rules/conquest.md, "Maps"), so a rules config is self-contained. Default: `DEFAULT_MAP`. */
      map: string;
      /** Largest width and height a map may have: 7 as in the document (5 to 32). */
      max_frame: number;
      /** The game ends after this many years (each year is a turn of both players); default 100. */
      max_years: number;
    }

    /** The answer to the setup request: `conquest` has nothing to choose, so it is `{}`. */
    interface SetupChoice {
    }

    /** Sent once before play. */
    interface SetupRequest {
      /** Columns of the map. */
      width: number;
      /** Rows of the map. */
      height: number;
      /** The receiving bot's seat: 0 is Player 1, 1 is Player 2. */
      seat: number;
      /** Home bases of seat 0 and seat 1. */
      homes: [Pos, Pos];
      /** The year of the first turn. */
      first_year: number;
      /** The game ends after this many years. */
      max_years: number;
    }

    /** A conquest bot: what `arena.playConquest` takes. */
    interface Bot extends arena.Bot<Rules, SetupRequest, SetupChoice, Observation, Orders> {}
  }
}
