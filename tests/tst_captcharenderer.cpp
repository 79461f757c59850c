#include "aadhaar/captcharenderer.h"

#include <QColor>
#include <QFile>
#include <QImage>
#include <QRandomGenerator>
#include <QTest>

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
    void savesSampleWhenAsked();
};

namespace {

QImage decode(const QByteArray &png)
{
    return QImage::fromData(png, "PNG");
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
