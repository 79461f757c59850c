#include "captcharenderer.h"

#include <QBuffer>
#include <QColor>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QImage>
#include <QLinearGradient>
#include <QLoggingCategory>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QPen>
#include <QPointF>
#include <QRandomGenerator>
#include <QRectF>
#include <QTransform>

namespace {

Q_LOGGING_CATEGORY(lcCaptcha, "rechargedesk.aadhaar.captcha")

constexpr int HorizontalMargin = 12;
constexpr double MaxHorizontalJitter = 3.0;
constexpr double MaxVerticalJitter = 7.0;

/// Uniform double in [low, high).
double uniform(QRandomGenerator &rng, double low, double high)
{
    return low + rng.generateDouble() * (high - low);
}

/// Uniform int in [low, high].
int between(QRandomGenerator &rng, int low, int high)
{
    return rng.bounded(low, high + 1);
}

QPointF randomPoint(QRandomGenerator &rng)
{
    return {uniform(rng, 0.0, CaptchaRenderer::Width), uniform(rng, 0.0, CaptchaRenderer::Height)};
}

/// A light two-colour gradient across the whole image.
void drawBackground(QPainter &painter, QRandomGenerator &rng)
{
    const int hue = between(rng, 0, 359);
    const QColor from = QColor::fromHsl(hue, between(rng, 60, 120), between(rng, 228, 245));
    const int toHue = (hue + between(rng, 40, 120)) % 360;
    const QColor to = QColor::fromHsl(toHue, between(rng, 60, 120), between(rng, 205, 222));
    QLinearGradient gradient(QPointF(0.0, uniform(rng, 0.0, CaptchaRenderer::Height)),
                             QPointF(CaptchaRenderer::Width, uniform(rng, 0.0, CaptchaRenderer::Height)));
    gradient.setColorAt(0.0, from);
    gradient.setColorAt(1.0, to);
    painter.fillRect(QRectF(0.0, 0.0, CaptchaRenderer::Width, CaptchaRenderer::Height), gradient);
}

/// A wavy curve from the left edge to the right edge.
QPainterPath randomCurve(QRandomGenerator &rng)
{
    const double h = CaptchaRenderer::Height;
    const double w = CaptchaRenderer::Width;
    QPainterPath path(QPointF(uniform(rng, -10.0, 10.0), uniform(rng, 0.15 * h, 0.85 * h)));
    path.cubicTo(QPointF(uniform(rng, 0.2 * w, 0.4 * w), uniform(rng, -0.2 * h, 1.2 * h)),
                 QPointF(uniform(rng, 0.6 * w, 0.8 * w), uniform(rng, -0.2 * h, 1.2 * h)),
                 QPointF(uniform(rng, w - 10.0, w + 10.0), uniform(rng, 0.15 * h, 0.85 * h)));
    return path;
}

/// Curves and dots in mid tones, drawn below and above the digits; @p darkest is the lowest HSL lightness used.
void drawNoise(QPainter &painter, QRandomGenerator &rng, int curves, int dots, int darkest, double maxPenWidth)
{
    painter.setBrush(Qt::NoBrush);
    for (int i = 0; i < curves; ++i) {
        const QColor colour = QColor::fromHsl(between(rng, 0, 359), between(rng, 40, 160), between(rng, darkest, 190));
        painter.setPen(QPen(colour, uniform(rng, 1.0, maxPenWidth), Qt::SolidLine, Qt::RoundCap));
        painter.drawPath(randomCurve(rng));
    }
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < dots; ++i) {
        painter.setBrush(QColor::fromHsl(between(rng, 0, 359), between(rng, 0, 160), between(rng, darkest, 230)));
        const double radius = uniform(rng, 0.6, 1.6);
        painter.drawEllipse(randomPoint(rng), radius, radius);
    }
}

/// The centre line of a digit in a box 0.6 wide and 1 high (y down), as a hand-letterer would draw it.
QPainterPath digitStrokes(char16_t digit)
{
    QPainterPath p;
    switch (digit) {
    case u'0': // a rounded box struck through, so it never reads as 8
        p.addRoundedRect(QRectF(0.04, 0.02, 0.52, 0.96), 0.24, 0.3);
        p.moveTo(0.62, -0.02);
        p.lineTo(-0.02, 1.02);
        break;
    case u'1': // flag and foot: never a bare bar, never a 7
        p.moveTo(0.08, 0.26);
        p.lineTo(0.32, 0.02);
        p.lineTo(0.32, 0.98);
        p.moveTo(0.06, 0.98);
        p.lineTo(0.58, 0.98);
        break;
    case u'2': // round top, diagonal, flat foot
        p.moveTo(0.05, 0.26);
        p.arcTo(QRectF(0.05, 0.02, 0.5, 0.46), 180, -210);
        p.lineTo(0.04, 0.98);
        p.lineTo(0.58, 0.98);
        break;
    case u'3': // flat top and one bowl: never an 8
        p.moveTo(0.04, 0.02);
        p.lineTo(0.54, 0.02);
        p.lineTo(0.24, 0.4);
        p.arcTo(QRectF(0.03, 0.36, 0.54, 0.62), 110, -260);
        break;
    case u'4': // open top, straight stem, long bar
        p.moveTo(0.26, 0.02);
        p.lineTo(0.02, 0.66);
        p.lineTo(0.6, 0.66);
        p.moveTo(0.46, 0.3);
        p.lineTo(0.46, 0.98);
        break;
    case u'5': // flat top, upright, bowl open at the lower left
        p.moveTo(0.56, 0.02);
        p.lineTo(0.1, 0.02);
        p.lineTo(0.08, 0.46);
        p.arcTo(QRectF(0.03, 0.36, 0.54, 0.62), 140, -270);
        break;
    case u'6': // a straight stem falling into a small loop
        p.moveTo(0.56, 0.02);
        p.lineTo(0.06, 0.74);
        p.addEllipse(QRectF(0.06, 0.56, 0.48, 0.42));
        break;
    case u'7': // top bar, straight diagonal, crossbar
        p.moveTo(0.02, 0.02);
        p.lineTo(0.58, 0.02);
        p.lineTo(0.22, 0.98);
        p.moveTo(0.18, 0.5);
        p.lineTo(0.58, 0.5);
        break;
    case u'8': // a narrow loop pinched onto a wide one
        p.addEllipse(QRectF(0.13, 0.02, 0.34, 0.42));
        p.addEllipse(QRectF(0.04, 0.44, 0.52, 0.54));
        break;
    case u'9': // a closed loop on a straight stem
        p.addEllipse(QRectF(0.04, 0.02, 0.52, 0.5));
        p.moveTo(0.56, 0.27);
        p.lineTo(0.56, 0.98);
        break;
    default:
        break;
    }
    return p;
}

/// Each glyph in its own cell, centred, then rotated, offset and slightly stretched.
void drawGlyphs(QPainter &painter, QRandomGenerator &rng, const QString &digits)
{
    const double cellWidth = double(CaptchaRenderer::Width - 2 * HorizontalMargin) / double(digits.size());
    painter.setPen(Qt::NoPen);
    for (qsizetype i = 0; i < digits.size(); ++i) {
        const QPainterPath glyph = CaptchaRenderer::glyphOutline(digits.at(i));

        const double centreX = HorizontalMargin + cellWidth * (double(i) + 0.5);
        painter.save();
        painter.translate(centreX + uniform(rng, -MaxHorizontalJitter, MaxHorizontalJitter),
                          CaptchaRenderer::Height / 2.0 + uniform(rng, -MaxVerticalJitter, MaxVerticalJitter));
        painter.rotate(uniform(rng, -CaptchaRenderer::MaxRotationDegrees, CaptchaRenderer::MaxRotationDegrees));
        painter.scale(uniform(rng, 0.85, 1.05), uniform(rng, 0.9, 1.1));
        painter.shear(uniform(rng, -0.15, 0.15), 0.0);
        painter.setBrush(QColor::fromHsl(between(rng, 0, 359), between(rng, 80, 200), between(rng, 25, 60)));
        painter.drawPath(glyph);
        painter.restore();
    }
}

} // namespace

QPainterPath CaptchaRenderer::glyphOutline(QChar digit)
{
    const QPainterPath strokes = digitStrokes(digit.unicode());
    if (strokes.isEmpty())
        return {};
    QPainterPathStroker stroker;
    stroker.setWidth(0.14);
    stroker.setCapStyle(Qt::RoundCap);
    stroker.setJoinStyle(Qt::RoundJoin);
    QPainterPath outline = stroker.createStroke(strokes).simplified();
    outline.translate(-0.3, -0.5); // the box's centre to the origin
    return QTransform::fromScale(GlyphPixelSize, GlyphPixelSize).map(outline);
}

CaptchaRenderer::CaptchaRenderer(QRandomGenerator *rng) : m_rng(rng != nullptr ? rng : QRandomGenerator::global())
{}

QByteArray CaptchaRenderer::renderPng(const QString &digits) const
{
    if (digits.isEmpty() || digits.size() > MaxGlyphs)
        return {};
    if (qobject_cast<QGuiApplication *>(QCoreApplication::instance()) == nullptr) {
        qCWarning(lcCaptcha, "CaptchaRenderer needs a QGuiApplication for fonts; no captcha rendered");
        return {};
    }

    QImage image(Width, Height, QImage::Format_RGB32);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        drawBackground(painter, *m_rng);
        drawNoise(painter, *m_rng, between(*m_rng, 4, 6), between(*m_rng, 100, 140), 140, 2.0);
        drawGlyphs(painter, *m_rng, digits);
        drawNoise(painter, *m_rng, 2, between(*m_rng, 60, 90), 70, 1.6);
    }

    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
        return {};
    return png;
}

QString CaptchaRenderer::randomDigits(QRandomGenerator &rng, int count)
{
    QString digits;
    if (count <= 0)
        return digits;
    digits.reserve(count);
    for (int i = 0; i < count; ++i)
        digits.append(QChar(u'0' + rng.bounded(10)));
    return digits;
}
