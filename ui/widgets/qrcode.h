#pragma once

#include <QByteArray>
#include <QImage>

class QPainter;
class QRect;
class QString;

/// A QR code symbol (ISO/IEC 18004) of a text, made by libqrencode (Debian's libqrencode4) at error correction
/// level M (15 % of the code may be lost) in the smallest version that holds the text. It draws itself black on
/// white whatever the theme, with the standard's quiet zone of 4 modules on every side and a whole number of
/// pixels per module, so a scanner sees sharp, equal modules (issue 28: the UPI QR on screen and on receipts).
class QrCode
{
public:
    /// Width of the white margin around the symbol, in modules (ISO/IEC 18004: at least 4).
    static constexpr int kQuietZone = 4;

    /// A null code (nothing to draw).
    QrCode() = default;
    /// The code of `text`'s UTF-8 (byte mode for letters, numeric and alphanumeric modes where they are shorter).
    /// A null code when `text` is empty, holds a NUL character, or is too long for a version-40 symbol at level M
    /// (2,331 bytes).
    static QrCode encode(const QString &text);

    bool isNull() const { return m_width == 0; }
    /// Modules per side of the symbol, without the quiet zone (21 for version 1 … 177 for version 40); 0 if null.
    int width() const { return m_width; }
    /// Modules per side with the quiet zone: width() + 2 × kQuietZone; 0 if null.
    int widthWithQuietZone() const;
    /// True if the module at column `x`, row `y` (0-based, inside the symbol) is dark.
    bool isDark(int x, int y) const;

    /// The largest whole number of pixels per module at which the code and its quiet zone fit in a square of
    /// `side` pixels; 0 if not even one pixel per module fits, or the code is null.
    int moduleSizeFor(int side) const;
    /// Fills the largest square centred in `rect` white and draws the code in it at moduleSizeFor() pixels per
    /// module, centred (quiet zone included). Draws only the white square if the code does not fit or is null.
    void paint(QPainter &painter, const QRect &rect) const;
    /// The code as a white `side` × `side` image (for a receipt printer or a file), drawn as paint() does; a null
    /// image when the code is null or not even one pixel per module fits in `side`.
    QImage toImage(int side) const;

private:
    int m_width = 0;
    QByteArray m_dark; ///< row-major, one byte per module: 1 dark, 0 light
};
