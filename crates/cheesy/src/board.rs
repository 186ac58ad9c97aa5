//! The terrain: a board of `rows x cols` fields, each forbidden, dangerous or open.
//!
//! Coordinates follow the contest: `x = 1..=cols` from the left, `y = 1..=rows` from the
//! bottom. The pawn walks towards `y = 1`.

use std::fmt;
use std::str::FromStr;

use endgame_core::input::quote;

/// The largest number of rows or columns of a board.
pub const MAX_SIDE: u8 = 64;

/// What a field of the board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `.`: anybody may enter.
    Open,
    /// `D`: a fixed dangerous field; the pawn may enter it, the king may not.
    Dangerous,
    /// `F`: a forbidden field; nobody may enter it.
    Forbidden,
}

impl Field {
    /// Every kind of field.
    pub const ALL: [Field; 3] = [Field::Open, Field::Dangerous, Field::Forbidden];

    /// The field's character: `.`, `D` or `F`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Field::Open => '.',
            Field::Dangerous => 'D',
            Field::Forbidden => 'F',
        }
    }

    /// The field written as `c`, if any.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Field> {
        match c {
            '.' => Some(Field::Open),
            'D' => Some(Field::Dangerous),
            'F' => Some(Field::Forbidden),
            _ => None,
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A field that is not `.`, `D` or `F`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFieldError(pub String);

impl fmt::Display for ParseFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected a field `.`, `D` or `F`, found {:?}", self.0)
    }
}

impl std::error::Error for ParseFieldError {}

impl FromStr for Field {
    type Err = ParseFieldError;
    fn from_str(s: &str) -> Result<Field, ParseFieldError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Field::from_char), chars.next()) {
            (Some(field), None) => Ok(field),
            _ => Err(ParseFieldError(s.to_string())),
        }
    }
}

/// A square by its contest coordinates: `x` counts columns from the left, `y` rows from the
/// bottom, both from 1. Written `(x,y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The column, `1..=cols`.
    pub x: u8,
    /// The row, `1..=rows` (1 is the bottom row).
    pub y: u8,
}

impl Square {
    /// The square `(x,y)`.
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Square {
        Square { x, y }
    }

    /// The square `dx` columns right and `dy` rows up, if the coordinates stay positive.
    #[must_use]
    pub fn offset(self, dx: i8, dy: i8) -> Option<Square> {
        let x = self.x.checked_add_signed(dx).filter(|&x| x >= 1)?;
        let y = self.y.checked_add_signed(dy).filter(|&y| y >= 1)?;
        Some(Square { x, y })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A square that is not written `(x,y)` or `x,y` with positive numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected a square `(x,y)` with x and y from 1 to {MAX_SIDE}, found {}", quote(&self.0))
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError(s.to_string());
        let inner = s.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(s);
        let (x, y) = inner.split_once(',').ok_or_else(bad)?;
        let coord = |t: &str| t.trim().parse::<u8>().ok().filter(|v| (1..=MAX_SIDE).contains(v));
        Ok(Square { x: coord(x).ok_or_else(bad)?, y: coord(y).ok_or_else(bad)? })
    }
}

/// Why fields do not make a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Rows or columns outside `1..=64`.
    Size {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
    },
    /// The number of fields is not `rows * cols`.
    FieldCount {
        /// `rows * cols`.
        expected: usize,
        /// The fields given.
        found: usize,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Size { rows, cols } => {
                write!(f, "expected 1 to {MAX_SIDE} rows and columns, found {rows} x {cols}")
            }
            BoardError::FieldCount { expected, found } => {
                write!(f, "expected {expected} fields, found {found}")
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// A board of `rows x cols` fields (1 to 64 each).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u8,
    cols: u8,
    /// Row by row from the bottom (`y = 1`), each from the left.
    fields: Vec<Field>,
}

impl Board {
    /// A board from its fields, listed row by row from the **top** (`y = rows`) down, each row
    /// from the left: the order in which the contest writes them.
    ///
    /// # Errors
    /// When the size is outside `1..=64` or the number of fields is not `rows * cols`.
    pub fn from_top_rows(rows: usize, cols: usize, fields: &[Field]) -> Result<Board, BoardError> {
        let side = 1..=usize::from(MAX_SIDE);
        if !side.contains(&rows) || !side.contains(&cols) {
            return Err(BoardError::Size { rows, cols });
        }
        if fields.len() != rows * cols {
            return Err(BoardError::FieldCount { expected: rows * cols, found: fields.len() });
        }
        let fields = fields.chunks(cols).rev().flatten().copied().collect();
        // The sizes fit in u8: checked against MAX_SIDE above.
        Ok(Board { rows: rows as u8, cols: cols as u8, fields })
    }

    /// A board of open fields only.
    ///
    /// # Errors
    /// When the size is outside `1..=64`.
    pub fn open(rows: usize, cols: usize) -> Result<Board, BoardError> {
        let max = usize::from(MAX_SIDE);
        let count = if rows <= max && cols <= max { rows * cols } else { 0 };
        Board::from_top_rows(rows, cols, &vec![Field::Open; count])
    }

    /// The number of rows.
    #[must_use]
    pub const fn rows(&self) -> u8 {
        self.rows
    }

    /// The number of columns.
    #[must_use]
    pub const fn cols(&self) -> u8 {
        self.cols
    }

    /// The number of squares, `rows * cols`.
    #[must_use]
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether the board has no squares (never: a board has at least one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Whether the square lies on the board.
    #[must_use]
    pub const fn contains(&self, sq: Square) -> bool {
        sq.x >= 1 && sq.x <= self.cols && sq.y >= 1 && sq.y <= self.rows
    }

    /// The dense number of a square on the board, `0..rows * cols` (row by row from the bottom).
    #[must_use]
    pub fn index(&self, sq: Square) -> usize {
        usize::from(sq.y - 1) * usize::from(self.cols) + usize::from(sq.x - 1)
    }

    /// The square with this dense number.
    #[must_use]
    pub fn square(&self, index: usize) -> Square {
        let cols = usize::from(self.cols);
        // index < rows * cols <= 64 * 64, so both coordinates fit in u8.
        Square { x: (index % cols) as u8 + 1, y: (index / cols) as u8 + 1 }
    }

    /// The field of a square on the board (`Forbidden` off the board: nobody enters it).
    #[must_use]
    pub fn field(&self, sq: Square) -> Field {
        if self.contains(sq) { self.fields[self.index(sq)] } else { Field::Forbidden }
    }

    /// Changes the field of a square on the board (squares off the board are ignored).
    pub fn set_field(&mut self, sq: Square, field: Field) {
        if self.contains(sq) {
            let i = self.index(sq);
            self.fields[i] = field;
        }
    }

    /// Every square, row by row from the bottom.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.len()).map(|i| self.square(i))
    }

    /// The floating dangerous fields of a pawn on `pawn`: the squares diagonally below it that
    /// are on the board and not forbidden.
    pub fn floating(&self, pawn: Square) -> impl Iterator<Item = Square> + '_ {
        [-1, 1]
            .into_iter()
            .filter_map(move |dx| pawn.offset(dx, -1))
            .filter(|&sq| self.contains(sq) && self.field(sq) != Field::Forbidden)
    }
}

impl fmt::Display for Board {
    /// The fields row by row from the top, one line per row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (1..=self.rows).rev() {
            for x in 1..=self.cols {
                write!(f, "{}", self.field(Square { x, y }))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_fields_and_floating() {
        let rows = [".F.", "D..", "..F"];
        let fields: Vec<Field> =
            rows.iter().flat_map(|r| r.chars()).map(|c| Field::from_char(c).unwrap()).collect();
        let board = Board::from_top_rows(3, 3, &fields).unwrap();
        assert_eq!(board.field(Square::new(2, 3)), Field::Forbidden);
        assert_eq!(board.field(Square::new(1, 2)), Field::Dangerous);
        assert_eq!(board.field(Square::new(3, 1)), Field::Forbidden);
        assert_eq!(board.to_string(), ".F.\nD..\n..F\n");
        for i in 0..board.len() {
            assert_eq!(board.index(board.square(i)), i);
        }
        // Below (2,2): (1,1) open and (3,1) forbidden, which is not floating dangerous.
        assert_eq!(board.floating(Square::new(2, 2)).collect::<Vec<_>>(), vec![Square::new(1, 1)]);
        assert_eq!(board.floating(Square::new(1, 1)).count(), 0);
        assert_eq!("(3,1)".parse::<Square>(), Ok(Square::new(3, 1)));
        assert_eq!("3,1".parse::<Square>(), Ok(Square::new(3, 1)));
        assert!("0,1".parse::<Square>().is_err());
        assert_eq!("F".parse::<Field>(), Ok(Field::Forbidden));
        assert!("FF".parse::<Field>().is_err());
        assert_eq!(Board::open(0, 3), Err(BoardError::Size { rows: 0, cols: 3 }));
        assert_eq!(Board::open(64, 65), Err(BoardError::Size { rows: 64, cols: 65 }));
    }
}
