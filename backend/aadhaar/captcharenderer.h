#pragma once

#include <QByteArray>
#include <QPainterPath>
#include <QString>

class QRandomGenerator;

/// Draws the numeric captcha of the Aadhaar OTP flow (api-conventions.md, "Aadhaar OTP flow") as a PNG image
/// (ISO/IEC 15948). The digits are large and dark on a light gradient so a person reads them at a glance; noise
/// curves and dots, per-glyph rotation (up to ±MaxRotationDegrees), offsets and colours keep naive OCR out.
///
/// The digits are not taken from a font: each is drawn with its own hand-lettered strokes (glyphOutline()) chosen
/// so that lookalikes stay apart even when rotated — 1 has a flag and a foot, 7 a crossbar, 0 is a box struck
/// through (never an 8), 3 has a flat top, 4 is open at the top (never a 9), 5 a flat top and an open bowl (never
/// a 6).
///
/// Images are drawn with QPainter on a QImage; the renderer still requires a QGuiApplication (or QApplication), as
/// image code may need one; on a server without a display run it with QT_QPA_PLATFORM=offscreen. Not thread-safe
/// unless the generator is (the default, QRandomGenerator::global(), is).
class CaptchaRenderer
{
public:
    /// Image width in pixels.
    static constexpr int Width = 200;
    /// Image height in pixels.
    static constexpr int Height = 70;
    /// Longest string renderPng() draws, in characters; the flow uses 6.
    static constexpr int MaxGlyphs = 8;
    /// Largest rotation of one digit either way, in degrees.
    static constexpr double MaxRotationDegrees = 18.0;
    /// Height of an unscaled digit, in pixels.
    static constexpr double GlyphPixelSize = 36.0;

    /// Creates a renderer drawing its randomness (layout, colours, noise) from @p rng, which is not owned and must
    /// outlive the renderer. nullptr selects QRandomGenerator::global(). Tests pass a seeded generator to get
    /// reproducible images.
    explicit CaptchaRenderer(QRandomGenerator *rng = nullptr);

    /// Renders @p digits (normally 6 ASCII digits, e.g. from randomDigits()) as a Width x Height PNG and returns
    /// the encoded file bytes. Returns an empty QByteArray if @p digits is empty or longer than MaxGlyphs, if no
    /// QGuiApplication exists (fonts would be unavailable), or if PNG encoding fails.
    QByteArray renderPng(const QString &digits) const;

    /// The filled outline of @p digit ('0'..'9') as drawn before rotation and noise: GlyphPixelSize pixels high,
    /// centred on the origin. An empty path for any other character.
    static QPainterPath glyphOutline(QChar digit);

    /// Returns @p count uniformly random ASCII digits ('0'..'9') drawn from @p rng; an empty string if
    /// @p count <= 0. Use a cryptographically strong generator (QRandomGenerator::system()) for real captchas.
    static QString randomDigits(QRandomGenerator &rng, int count);

private:
    QRandomGenerator *m_rng;
};
