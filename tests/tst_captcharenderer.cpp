#include "aadhaar/captcharenderer.h"

#include <QColor>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QRandomGenerator>
#include <QTest>
#include <QTransform>

#include <algorithm>
#include <cstdlib>

/// Needs a QGuiApplication for fonts: QTEST_MAIN provides one (Qt6::Gui is linked); run with
/// QT_QPA_PLATFORM=offscreen. Set RECHARGEDESK_CAPTCHA_SAMPLE=<file.png> to keep a sample image for a look.
class TestCaptchaRenderer : public QObject
{
    Q_OBJECT

private slots:
    void rendersDecodablePngOfFixedSize_data();
    void rendersDecodablePngOfFixedSize();
    void drawsDarkDigitsOnLightBackground();
    void sameSeedGivesSameImage();
    void differentSeedsGiveDifferentImages();
    void differentDigitsGiveDifferentImages();
    void refusesUnrenderableInput_data();
    void refusesUnrenderableInput();
    void randomDigitsAreAsciiDigits_data();
    void randomDigitsAreAsciiDigits();
    void randomDigitsCoverAllDigits();
    void lookalikeDigitsStayApart_data();
    void lookalikeDigitsStayApart();
    void glyphsCoverEveryDigitOnly();
    void savesSampleWhenAsked();
};

namespace {

QImage decode(const QByteArray &png)
{
    return QImage::fromData(png, "PNG");
}

/// What a reader sees of `digit` turned by `degrees`: the outline, centred, inked on a 64×64 canvas and blurred
/// down to 16×16 (the coarse shape the eye compares).
QImage coarseShape(QChar digit, double degrees)
{
    QPainterPath glyph = QTransform().rotate(degrees).map(CaptchaRenderer::glyphOutline(digit));
    glyph.translate(-glyph.boundingRect().center());
    QImage canvas(64, 64, QImage::Format_Grayscale8);
    canvas.fill(0);
    QPainter painter(&canvas);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(32.0, 32.0);
    painter.setPen(Qt::NoPen);
    painter.setBrush(Qt::white);
    painter.drawPath(glyph);
    painter.end();
    return canvas.scaled(16, 16, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

/// How unlike two coarse shapes are: the ink only one of them has over the ink of both (0 same, 1 disjoint).
double unlikeness(const QImage &a, const QImage &b)
{
    double different = 0;
    double either = 0;
    for (int y = 0; y < a.height(); ++y) {
        const uchar *lineA = a.constScanLine(y);
        const uchar *lineB = b.constScanLine(y);
        for (int x = 0; x < a.width(); ++x) {
            different += std::abs(int(lineA[x]) - int(lineB[x]));
            either += std::max(lineA[x], lineB[x]);
        }
    }
    return either > 0 ? different / either : 0.0;
}

} // namespace

void TestCaptchaRenderer::rendersDecodablePngOfFixedSize_data()
{
    QTest::addColumn<QString>("digits");
    QTest::addColumn<quint32>("seed");

    QTest::newRow("six digits") << QStringLiteral("482915") << 1u;
    QTest::newRow("all zeros") << QStringLiteral("000000") << 2u;
    QTest::newRow("all eights") << QStringLiteral("888888") << 3u;
    QTest::newRow("one digit") << QStringLiteral("7") << 4u;
    QTest::newRow("max glyphs") << QStringLiteral("12345678") << 5u;
}

void TestCaptchaRenderer::rendersDecodablePngOfFixedSize()
{
    QFETCH(QString, digits);
    QFETCH(quint32, seed);

    QRandomGenerator rng(seed);
    const CaptchaRenderer renderer(&rng);
    const QByteArray png = renderer.renderPng(digits);
    QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
    const QImage image = decode(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(CaptchaRenderer::Width, CaptchaRenderer::Height));
}

void TestCaptchaRenderer::drawsDarkDigitsOnLightBackground()
{
    // Digits are dark (HSL lightness <= 60) and the background light (>= 205); if no font were found, hardly any
    // dark pixels would be drawn. Noise is a small share of the dark pixels.
    for (quint32 seed = 1; seed <= 20; ++seed) {
        QRandomGenerator rng(seed);
        const QImage image = decode(CaptchaRenderer(&rng).renderPng(QStringLiteral("396104")));
        int dark = 0;
        int light = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const int lightness = image.pixelColor(x, y).lightness();
                dark += lightness < 90 ? 1 : 0;
                light += lightness > 180 ? 1 : 0;
            }
        }
        const int total = image.width() * image.height();
        QVERIFY2(dark > total / 12, qPrintable(QStringLiteral("seed %1: only %2 dark pixels").arg(seed).arg(dark)));
        QVERIFY2(light > total / 2, qPrintable(QStringLiteral("seed %1: only %2 light pixels").arg(seed).arg(light)));
    }
}

void TestCaptchaRenderer::sameSeedGivesSameImage()
{
    QRandomGenerator first(42);
    QRandomGenerator second(42);
    QCOMPARE(CaptchaRenderer(&first).renderPng(QStringLiteral("123456")),
             CaptchaRenderer(&second).renderPng(QStringLiteral("123456")));
}

void TestCaptchaRenderer::differentSeedsGiveDifferentImages()
{
    QRandomGenerator first(1);
    QRandomGenerator second(2);
    const QImage a = decode(CaptchaRenderer(&first).renderPng(QStringLiteral("123456")));
    const QImage b = decode(CaptchaRenderer(&second).renderPng(QStringLiteral("123456")));
    QVERIFY(!a.isNull() && !b.isNull());
    QVERIFY(a != b);
}

void TestCaptchaRenderer::differentDigitsGiveDifferentImages()
{
    QRandomGenerator first(7);
    QRandomGenerator second(7);
    const QImage a = decode(CaptchaRenderer(&first).renderPng(QStringLiteral("111111")));
    const QImage b = decode(CaptchaRenderer(&second).renderPng(QStringLiteral("111112")));
    QVERIFY(a != b);
}

void TestCaptchaRenderer::refusesUnrenderableInput_data()
{
    QTest::addColumn<QString>("digits");

    QTest::newRow("empty") << QString();
    QTest::newRow("too long") << QStringLiteral("123456789");
}

void TestCaptchaRenderer::refusesUnrenderableInput()
{
    QFETCH(QString, digits);

    QRandomGenerator rng(1);
    QVERIFY(CaptchaRenderer(&rng).renderPng(digits).isEmpty());
}

void TestCaptchaRenderer::randomDigitsAreAsciiDigits_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("expectedLength");

    QTest::newRow("six") << 6 << 6;
    QTest::newRow("one") << 1 << 1;
    QTest::newRow("many") << 64 << 64;
    QTest::newRow("zero") << 0 << 0;
    QTest::newRow("negative") << -3 << 0;
}

void TestCaptchaRenderer::randomDigitsAreAsciiDigits()
{
    QFETCH(int, count);
    QFETCH(int, expectedLength);

    QRandomGenerator rng(99);
    const QString digits = CaptchaRenderer::randomDigits(rng, count);
    QCOMPARE(digits.size(), expectedLength);
    for (const QChar c : digits)
        QVERIFY2(c >= u'0' && c <= u'9', qPrintable(digits));
}

void TestCaptchaRenderer::randomDigitsCoverAllDigits()
{
    QRandomGenerator rng(2024);
    const QString digits = CaptchaRenderer::randomDigits(rng, 1000);
    for (char16_t d = u'0'; d <= u'9'; ++d)
        QVERIFY2(digits.count(QChar(d)) > 50, qPrintable(QString(QChar(d))));

    QRandomGenerator again(2024);
    QCOMPARE(CaptchaRenderer::randomDigits(again, 1000), digits);
}

void TestCaptchaRenderer::lookalikeDigitsStayApart_data()
{
    QTest::addColumn<QChar>("first");
    QTest::addColumn<QChar>("second");
    QTest::newRow("1 and 7") << QChar(u'1') << QChar(u'7');
    QTest::newRow("0 and 8") << QChar(u'0') << QChar(u'8');
    QTest::newRow("5 and 6") << QChar(u'5') << QChar(u'6');
    QTest::newRow("2 and 7") << QChar(u'2') << QChar(u'7');
    QTest::newRow("4 and 9") << QChar(u'4') << QChar(u'9');
    QTest::newRow("3 and 8") << QChar(u'3') << QChar(u'8');
    QTest::newRow("6 and 8") << QChar(u'6') << QChar(u'8');
}

void TestCaptchaRenderer::lookalikeDigitsStayApart()
{
    // Each digit may be turned either way up to MaxRotationDegrees: even the most alike pair of turns must leave
    // a clear share of the coarse shape different.
    QFETCH(QChar, first);
    QFETCH(QChar, second);
    const double max = CaptchaRenderer::MaxRotationDegrees;
    double closest = 1.0;
    QString where;
    for (double a = -max; a <= max + 0.01; a += max / 3) {
        const QImage shapeA = coarseShape(first, a);
        for (double b = -max; b <= max + 0.01; b += max / 3) {
            const double value = unlikeness(shapeA, coarseShape(second, b));
            if (value < closest) {
                closest = value;
                where = QStringLiteral("%1 turned %2°, %3 turned %4°").arg(first).arg(a).arg(second).arg(b);
            }
        }
    }
    qInfo("closest: %.2f (%s)", closest, qPrintable(where));
    QVERIFY2(closest >= 0.46, qPrintable(QStringLiteral("only %1 apart: %2").arg(closest, 0, 'f', 2).arg(where)));
}

void TestCaptchaRenderer::glyphsCoverEveryDigitOnly()
{
    for (char16_t d = u'0'; d <= u'9'; ++d) {
        const QRectF box = CaptchaRenderer::glyphOutline(QChar(d)).boundingRect();
        QVERIFY2(box.height() > CaptchaRenderer::GlyphPixelSize * 0.9, qPrintable(QString(QChar(d))));
        QVERIFY(qAbs(box.center().y()) < 2.0);
    }
    QVERIFY(CaptchaRenderer::glyphOutline(QChar(u'a')).isEmpty());
}

void TestCaptchaRenderer::savesSampleWhenAsked()
{
    const QString path = qEnvironmentVariable("RECHARGEDESK_CAPTCHA_SAMPLE");
    if (path.isEmpty())
        QSKIP("set RECHARGEDESK_CAPTCHA_SAMPLE=<file.png> to save a sample captcha");
    QRandomGenerator rng(QRandomGenerator::system()->generate());
    const CaptchaRenderer renderer(&rng);
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(file.errorString()));
    const QString digits = CaptchaRenderer::randomDigits(rng, 6);
    QVERIFY(file.write(renderer.renderPng(digits)) > 0);
    qInfo("saved captcha for %s to %s", qPrintable(digits), qPrintable(path));
}

QTEST_MAIN(TestCaptchaRenderer)
#include "tst_captcharenderer.moc"
