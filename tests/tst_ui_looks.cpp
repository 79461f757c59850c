#include "terminalfixture.h"
#include "widgets/look.h"
#include "widgets/statusbadge.h"

#include <QFontInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <QVBoxLayout>

/// The looks of ui/style.qss as the terminal shows them, in a window and in the kiosk (issue 14): a look's size and
/// its state colours are not overridden by the kiosk's larger type (the object-name rules the looks replaced
/// outranked the kiosk rules; a look selector alone does not).
class TestUiLooks final : public QObject
{
    Q_OBJECT

private:
    /// A window (kiosk or not) as MainWindow sets it up, holding `child`; shown and polished.
    static std::unique_ptr<QWidget> windowWith(QWidget *child, bool kiosk)
    {
        auto window = std::make_unique<QWidget>();
        window->setProperty("kiosk", kiosk);
        (new QVBoxLayout(window.get()))->addWidget(child);
        window->resize(700, 200);
        window->show();
        child->ensurePolished();
        return window;
    }

    static const char *placeName(bool kiosk) { return kiosk ? "kiosk" : "window"; }

private Q_SLOTS:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void statusBadgeColours_data()
    {
        QTest::addColumn<bool>("kiosk");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QColor>("background");
        const std::pair<const char *, QColor> colours[] = {{"SUCCESS", QColor(0x07, 0x94, 0x55)},
                                                           {"PENDING", QColor(0xdc, 0x68, 0x03)},
                                                           {"FAILED", QColor(0xd9, 0x2d, 0x20)}};
        for (const bool kiosk : {false, true}) {
            for (const auto &[status, colour] : colours)
                QTest::addRow("%s %s", placeName(kiosk), status) << kiosk << QString::fromLatin1(status) << colour;
        }
    }
    void statusBadgeColours()
    {
        QFETCH(bool, kiosk);
        QFETCH(QString, status);
        QFETCH(QColor, background);
        auto *badge = new StatusBadge;
        badge->setStatus(status);
        const auto window = windowWith(badge, kiosk);
        QCOMPARE(QFontInfo(badge->font()).pixelSize(), 26);
        // Within the padding at mid-height: neither a rounded corner nor text.
        const QImage image = badge->grab().toImage();
        QCOMPARE(image.pixelColor(5, image.height() / 2), background);
    }

    void sizesOverTheKiosk_data()
    {
        QTest::addColumn<bool>("kiosk");
        QTest::addColumn<QByteArray>("look");
        QTest::addColumn<int>("pixelSize");
        const std::pair<const char *, int> sizes[] = {{"pageTitle", 24},  {"confirmAmount", 30},  {"maskedNumber", 32},
                                                      {"otpCounter", 18}, {"testModeBanner", 15}, {"resultMoney", 24},
                                                      {"redeemCode", 34}, {"codeToCome", 18}};
        for (const bool kiosk : {false, true}) {
            for (const auto &[look, size] : sizes)
                QTest::addRow("%s %s", placeName(kiosk), look) << kiosk << QByteArray(look) << size;
        }
    }
    void sizesOverTheKiosk()
    {
        QFETCH(bool, kiosk);
        QFETCH(QByteArray, look);
        QFETCH(int, pixelSize);
        auto *label = new QLabel(QStringLiteral("1234"));
        Look::set(label, look.constData());
        const auto window = windowWith(label, kiosk);
        QCOMPARE(QFontInfo(label->font()).pixelSize(), pixelSize);
    }

    void codeInputOverTheKiosk()
    {
        for (const bool kiosk : {false, true}) {
            auto *input = new QLineEdit;
            Look::set(input, "codeInput");
            const auto window = windowWith(input, kiosk);
            QCOMPARE(QFontInfo(input->font()).pixelSize(), 24);
        }
    }

    void stateColourOverTheKiosk()
    {
        for (const bool kiosk : {false, true}) {
            auto *countdown = new QLabel(QStringLiteral("00:10"));
            countdown->setProperty("state", QStringLiteral("bad"));
            Look::set(countdown, "otpCounter");
            const auto window = windowWith(countdown, kiosk);
            QCOMPARE(countdown->palette().color(QPalette::WindowText), QColor(0xb4, 0x23, 0x18));
        }
    }
};

QTEST_MAIN(TestUiLooks)
#include "tst_ui_looks.moc"
