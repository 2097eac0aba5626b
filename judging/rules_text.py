# ruff: noqa: E501
"""Rule texts of RULES.md (ruleset dm2023), generated — do not edit.

Regenerate with ``manage.py judging_rules_text`` when RULES.md changes.
"""

SOURCE = "shared/rules/RULES.md"
SOURCE_SHA256 = "b4fe1b86b4a09416c72e41155293d87aeb6f285d51471330b5187419faa3cf72"
GENERATED_ON = "2026-11-25"

# fmt: off
RULES: dict[str, str] = {
    'S1': 'Four players. Seats clockwise: Yellow `Y`, Red `R`, Blue `B`, Green `G`. Partners sit opposite each other: team **YB** (Y, B) against team **RG** (R, G). (EN, DA)',
    'S2': "Each player has 4 pawns of their colour. At the start all 16 pawns are in their owner's **start circle**. (EN, DM §1)",
    'S3': 'A player moves their own pawns. Exceptions: the swap card (C9) touches any pawns; a player whose 4 pawns are all locked (F4) moves the **partner\'s** pawns with their own cards from then on, including bringing them into play and the rest of a 7 (C7). (EN "When a player has own four pawns in the House, the player plays the partner\'s pawns"; DM FAQ on the 7)',
    'B1': "The track is a ring of **56 numbered fields**, 4 quarters of 14 (DM §3). Quarter `X` consists of fields `X1`…`X14`, which follow X's **start field** `XS` clockwise. Clockwise ring order: `YS Y1 … Y14 RS R1 … R14 BS B1 … B14 GS G1 … G14` and back to `YS`.",
    'B2': 'The start field is **never counted** as a step: a pawn moving forward from `Y14` lands on `R1` with its first step; one moving backward from `R1` lands on `Y14`. Pawns reach a start field only by entering from the start circle (C8). (DM §2, FAQ "Tæller startfelterne med…? Nej, aldrig!")',
    'B3': 'Each player has a **finish area** with 4 **goal circles** `XM1`…`XM4`; `XM1` is the innermost, `XM4` the outermost. (DM §4 "målcirkel 1 … 4")',
    'B4': 'A pawn of colour X travels: `XS → X1 … X14 → (next quarter) 1 … 14 → … → P14 → XM4 → XM3 → XM2 → XM1`, where `P` is the seat before X (Y\'s path ends `… G14 → YM4`; R\'s ends `… Y14 → RM4`). A pawn of X moving forward from `P14` always enters X\'s finish area; it never passes its own start field forward. (DM §2 "Startfeltet tæller heller ikke med, hvis man … skal rykke ind i sit slutfelt"; EN "A pawn that moves forward passes 15 and not 0")',
    'B5': 'Locations and their codes (used in the notation, the API and messages): | code | meaning | |---|---| | `XH` | X\'s start circle (pawns not in play; "home") | | `XS` | X\'s start field | | `X1`…`X14` | numbered track fields of quarter X | | `XM1`…`XM4` | X\'s goal circles, `XM1` innermost |',
    'T1': 'Two pawns of **different colours never share a field.** (DM "der må ikke stå to brikker i hver sin farve på samme felt")',
    'T2': 'Landing on a numbered field (the last step of a move or sub-move): - empty → the pawn stays there; - one or more pawns of the **moving pawn\'s colour** → it joins them (never a hit); a finished player moving the partner\'s pawns uses the partner\'s colour; - exactly **one** pawn of another colour (opponent **or partner**) → that pawn is **hit home** to its owner\'s start circle; the mover stays; - **two or more** pawns of one other colour → the **moving pawn** is hit home to its own start circle; the field is unchanged. (DM FAQ; EN Track rules; a player may hit themselves home on purpose: DM FAQ "Må man slå sig selv hjem med vilje…? Ja")',
    'T3': 'Passing over pawns on numbered fields is always allowed, however many stand there. (DM "Flere brikker på samme felt spærrer ikke for nogen")',
    'T5': 'Several pawns of X may stand on `XS`. Pawns on a start field cannot be hit (nothing can land there) and cannot be swapped (C9). (DM §2, FAQ)',
    'F1': 'A pawn cannot jump over a pawn in the finish area and cannot land on an occupied goal circle. (DM §4, FAQ)',
    'F3': 'A locked pawn never moves again, for any card. (DM §4, Ex. 4)',
    'F4': "A player whose 4 pawns are locked is **finished** and plays the partner's pawns (S3). A team wins when all 8 of its pawns are locked (W1).",
    'F7': 'The −4 card and the swap card never touch a pawn in a goal circle. (DM "Specialkort i slutfeltet?")',
    'C1': 'The deck has **56 cards: 4 of each of 14 kinds** — `1 2 3 4 5 6 7 8 9 10 11 12 13 J`. (EN: 56 cards, 8 left after three deals of 16; the 14 kinds give the "17 move options" the publisher advertises.) **Decision:** 4 of each kind; the composition is a ruleset setting, since no public source prints it.',
    'C2': '`2 3 5 6 9 10 12`: move **one** pawn exactly that many steps forward.',
    'C3': '`1`: one pawn 1 **or** 14 steps forward.',
    'C4': "`4`: one pawn exactly 4 steps **backward** (counter-clockwise). Allowed for a pawn on its start field (`XS` → `P14`, `P13`, `P12`, `P11`); not for a pawn in a goal circle (F7) or the start circle. Other colours' start fields block it (T4).",
    'C5': '`8`: enter (C8) **or** one pawn 8 steps forward. `13`: enter **or** 13 steps. `11` (the heart card): **only** enter.',
    'C6': 'Every step count must be used in full; a pawn that cannot make all its steps (T4, F5, F6) cannot be moved with that card.',
    'D1': 'A dealer shuffles and deals **4 cards** to each player (3 to a player under penalty P1). Each player then gives one card face down to the partner. (EN, DA)',
    'D2': 'The player to the left (clockwise next) of the dealer plays first; play goes clockwise. **Decision:** every deal is opened by the player left of its dealer.',
    'D3': 'On a turn the player plays one card and makes one legal move with it. If at least one card in hand has a legal move, the player **must** play such a card (free choice which), even if the move is bad. (EN; DM fair play)',
    'D4': 'If no card in hand has a legal move, the player shows and discards **all** cards and sits out until the next deal. The swap card counts as playable whenever two swappable pawns exist anywhere. (DM "Hvad hvis man slet ikke kan spille et brugbart kort?"; FR "Échange")',
    'D5': "When every player's hand is empty, the same dealer deals again without shuffling. After a dealer's **third** deal is played out, the deal passes to the left and the new dealer shuffles all 56 cards. (EN, DA; DM FAQ)",
    'D6': 'Card counting follows: between two shuffles no kind is played or discarded more than 4 times. A record that breaks this is inconsistent.',
    'D7': 'First dealer: each player draws a card; highest deals (swap and heart count 0; a two-value card counts its higher value). (DM FAQ) The record just names the first dealer.',
    'W1': 'The first team with all **8 pawns locked** wins; the game ends at once, even mid-deal. Nothing can be played in a won position. (EN, DA "Det par, der først får alle otte brikker i hus")',
    'W2': 'A tournament game lasts **at most 60 minutes**. Judges step in from about **50 minutes** if a game looks stuck or likely to overrun. (DM fair play)',
    'W3': '**Decision (tournament setting):** a game stopped at the time limit is adjudicated by **remaining distance**: for each team, the sum over its 8 pawns of the steps still needed to reach `XM1` along the pawn\'s path (locked = 0, start field = 60, start circle = 61); fewer wins. (Club events count "the fields remaining" the same way.) Alternative setting: locked pawns first, then remaining distance. The engine proposes; a judge confirms or overrides, with a written reason.',
    'P1': 'Moving a pawn before laying the card: the card must be used, and the player is dealt **3 cards** at the next deal. The same penalty for not following the swap procedure. (EN, DA)',
    'P2': "Partners talking about the game in progress: the opponent to the left of the talker may move one of the talker's pawns **from the track back to its start circle**. (EN, DA)",
    'P3': 'Touch-move: a pawn lifted must be moved if possible; if impossible, another pawn may be moved with the card played. (DM fair play)',
    'P4': "A card laid must be used if it can; a laid card that cannot be used is taken back and another usable card played. A card laid out of turn must be played on the player's turn if usable. (DM fair play)",
    'P5': 'Signalling to the partner about the card exchange is not allowed. (DM)',
}
# fmt: on
