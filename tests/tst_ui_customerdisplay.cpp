// The customer display (ui/customerdisplay/customerdisplay.h), issue 28: the words shown at each stage of a sale, the
// UPI QR only when the customer pays by UPI, never the commission, the wallet or another sale's number or amount,
// back to the idle screen after an outcome, Devanagari drawn with real glyphs, and screenshots at 1366×768.
#include "customerdisplay/customerdisplay.h"
#include "terminalfixture.h"
#include "upilink.h"
#include "widgets/upiqrwidget.h"

#include <QDir>
#include <QGlyphRun>
#include <QGuiApplication>
#include <QLabel>
#include <QRawFont>
#include <QRegularExpression>
#include <QScreen>
#include <QTest>
#include <QTextLayout>
#include <QTimer>

namespace {

using Stage = CustomerDisplayState::Stage;

const QString kShop = QStringLiteral("शर्मा मोबाइल (Sharma Mobile)");

/// The texts of the labels a customer sees on `panel`, in the panel's order.
QStringList shownTexts(const QWidget &panel)
{
    QStringList texts;
    for (const QLabel *label : panel.findChildren<QLabel *>()) {
        if (label->isVisibleTo(&panel) && !label->text().isEmpty())
            texts << label->text();
    }
    return texts;
}

/// Every label's text, shown or not (what the panel holds at all).
QString allText(const QWidget &panel)
{
    QStringList texts;
    for (const QLabel *label : panel.findChildren<QLabel *>())
        texts << label->text();
    return texts.join(u'\n');
}

CustomerDisplayState sale(Stage stage, const QString &tender)
{
    CustomerDisplayState state;
    state.stage = stage;
    state.shopName = kShop;
    state.operatorName = QStringLiteral("Jio");
    state.number = QStringLiteral("9876543210");
    state.amount = 29900;
    state.tender = tender;
    if (tender == QLatin1String("upi"))
        state.upiLink = UpiLink::build(QStringLiteral("sharmamobile@okaxis"), QStringLiteral("शर्मा मोबाइल"), 29900,
                                       UpiLink::saleNote(state.number, QStringLiteral("RD-20240501-0007")));
    return state;
}

/// True when every character of `label`'s text is drawn with a real glyph of some font (none is the missing-glyph
/// box): the font fallback finds fonts for the script (Devanagari: fonts-noto-core).
bool drawnWithRealGlyphs(const QLabel &label)
{
    QTextLayout layout(label.text(), label.font());
    layout.beginLayout();
    while (layout.createLine().isValid()) {
    }
    layout.endLayout();
    const QList<QGlyphRun> runs = layout.glyphRuns();
    if (runs.isEmpty())
        return false;
    for (const QGlyphRun &run : runs) {
        for (const quint32 glyph : run.glyphIndexes()) {
            if (glyph == 0)
                return false;
        }
    }
    return true;
}

} // namespace

class TestUiCustomerDisplay final : public QObject
{
    Q_OBJECT

private:
    /// Saves `panel` at 1366×768 under /tmp/i28/shots/ (to look at) and returns the picture.
    static QImage shot(CustomerDisplayPanel &panel, const QString &name)
    {
        panel.resize(1366, 768);
        panel.show();
        QCoreApplication::processEvents();
        const QImage image = panel.grab().toImage();
        QDir().mkpath(QStringLiteral("/tmp/i28/shots"));
        image.save(QStringLiteral("/tmp/i28/shots/customerdisplay_%1.png").arg(name));
        return image;
    }

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void stageTexts_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("tender");
        QTest::addColumn<QStringList>("texts");
        QTest::addColumn<bool>("qr");
        QTest::newRow("idle") << int(Stage::Idle) << QString() << QStringList{kShop, QStringLiteral("Welcome")}
                              << false;
        QTest::newRow("to pay, cash") << int(Stage::ToPay) << QStringLiteral("cash")
                                      << QStringList{QStringLiteral("Jio"), QStringLiteral("9876543210"),
                                                     QStringLiteral("Amount to pay"), QStringLiteral("₹299.00"),
                                                     QStringLiteral("Please pay in cash at the counter")}
                                      << false;
        QTest::newRow("to pay, UPI") << int(Stage::ToPay) << QStringLiteral("upi")
                                     << QStringList{QStringLiteral("Jio"),
                                                    QStringLiteral("9876543210"),
                                                    QStringLiteral("Amount to pay"),
                                                    QStringLiteral("₹299.00"),
                                                    QStringLiteral("₹299.00 to शर्मा मोबाइल"),
                                                    QStringLiteral("Pay by any UPI app; the shop confirms receipt")}
                                     << true;
        QTest::newRow("to pay, tender not chosen")
            << int(Stage::ToPay) << QString()
            << QStringList{QStringLiteral("Jio"), QStringLiteral("9876543210"), QStringLiteral("Amount to pay"),
                           QStringLiteral("₹299.00")}
            << false;
        QTest::newRow("recharged") << int(Stage::Recharged) << QStringLiteral("upi")
                                   << QStringList{QStringLiteral("Recharged ✓"), QStringLiteral("Jio · 9876543210"),
                                                  QStringLiteral("Paid ₹299.00")}
                                   << false;
        QTest::newRow("not recharged") << int(Stage::NotRecharged) << QStringLiteral("cash")
                                       << QStringList{QStringLiteral("Not recharged — nothing to pay"),
                                                      QStringLiteral("Jio · 9876543210")}
                                       << false;
        QTest::newRow("waiting")
            << int(Stage::Waiting) << QStringLiteral("cash")
            << QStringList{QStringLiteral("Waiting for the operator"), QStringLiteral("Jio · 9876543210"),
                           QStringLiteral("Amount ₹299.00"),
                           QStringLiteral("The operator has not confirmed the recharge yet. The shop will tell you "
                                          "when it does.")}
            << false;
        QTest::newRow("late failure, cash")
            << int(Stage::MoneyBack) << QStringLiteral("cash")
            << QStringList{QStringLiteral("Not recharged — your money will be given back"),
                           QStringLiteral("Jio · 9876543210"), QStringLiteral("To be given back: ₹299.00"),
                           QStringLiteral("The shop returns it in cash.")}
            << false;
        QTest::newRow("late failure, tender not recorded")
            << int(Stage::MoneyBack) << QString()
            << QStringList{QStringLiteral("Not recharged — your money will be given back"),
                           QStringLiteral("Jio · 9876543210"), QStringLiteral("To be given back: ₹299.00")}
            << false;
        QTest::newRow("late failure, UPI")
            << int(Stage::MoneyBack) << QStringLiteral("upi")
            << QStringList{QStringLiteral("Not recharged — your money will be given back"),
                           QStringLiteral("Jio · 9876543210"), QStringLiteral("To be given back: ₹299.00"),
                           QStringLiteral("The shop returns it by UPI.")}
            << false;
    }
    void stageTexts()
    {
        QFETCH(int, stage);
        QFETCH(QString, tender);
        QFETCH(QStringList, texts);
        QFETCH(bool, qr);
        CustomerDisplayPanel panel;
        panel.setState(sale(Stage(stage), tender));
        const QImage image = shot(panel, QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_').remove(u','));
        QCOMPARE(shownTexts(panel), texts);
        auto *code = panel.findChild<UpiQrWidget *>(QStringLiteral("customerUpiQr"));
        QVERIFY(code);
        QCOMPARE(code->isVisibleTo(&panel) && code->hasCode(), qr);
        if (qr) {
            QCOMPARE(code->text(), sale(Stage::ToPay, QStringLiteral("upi")).upiLink);
            // Big enough to scan from 40 cm, and all of it on the 1366×768 screen.
            const QRect onPanel(code->mapTo(&panel, QPoint(0, 0)), code->size());
            QVERIFY2(panel.rect().contains(onPanel), "the QR runs off the screen");
            QVERIFY(code->findChild<QWidget *>(QStringLiteral("upiQrCode"))->height() >= 240);
        }
        // Never the commission or the wallet, in any stage (shown or kept in a hidden label).
        const QString everything = allText(panel);
        for (const char *word : {"commission", "wallet", "discount", "balance"})
            QVERIFY2(!everything.contains(QLatin1String(word), Qt::CaseInsensitive), word);
        QVERIFY(!image.isNull());
    }

    // A second sale shows nothing of the first, and the idle screen nothing of either.
    void nothingOfAnotherSale()
    {
        CustomerDisplayPanel panel;
        panel.setState(sale(Stage::Recharged, QStringLiteral("upi")));
        CustomerDisplayState next;
        next.stage = Stage::ToPay;
        next.shopName = kShop;
        next.operatorName = QStringLiteral("Airtel");
        next.number = QStringLiteral("9123456780");
        next.amount = 4900;
        next.tender = QStringLiteral("cash");
        panel.setState(next);
        QString everything = allText(panel);
        QVERIFY2(!everything.contains(QLatin1String("9876543210")), qPrintable(everything));
        QVERIFY2(!everything.contains(QLatin1String("299")), qPrintable(everything));
        QVERIFY2(!everything.contains(QLatin1String("Jio")), qPrintable(everything));
        QVERIFY(!panel.findChild<UpiQrWidget *>(QStringLiteral("customerUpiQr"))->hasCode());
        QVERIFY(shownTexts(panel).contains(QStringLiteral("9123456780")));

        CustomerDisplayState idle;
        idle.shopName = kShop;
        panel.setState(idle);
        everything = allText(panel);
        QVERIFY2(!everything.contains(QLatin1String("9123456780")) && !everything.contains(QLatin1String("49")),
                 qPrintable(everything));
    }

    // After an outcome the idle screen comes back by itself (20 s by default), keeping the shop's name only; the
    // next sale cancels that.
    void backToIdle()
    {
        CustomerDisplayPanel panel;
        QCOMPARE(panel.backToIdleMs(), CustomerDisplayPanel::kBackToIdleMs);
        QCOMPARE(CustomerDisplayPanel::kBackToIdleMs, 20000);
        auto *timer = panel.findChild<QTimer *>();
        QVERIFY(timer);
        panel.setState(sale(Stage::ToPay, QStringLiteral("upi")));
        QVERIFY(!timer->isActive()); // a sale to pay stays until the counter moves on
        panel.setBackToIdleMs(100);
        panel.setState(sale(Stage::Waiting, QStringLiteral("cash")));
        QVERIFY(timer->isActive());
        QTRY_COMPARE(int(panel.state().stage), int(Stage::Idle));
        QCOMPARE(shownTexts(panel), (QStringList{kShop, QStringLiteral("Welcome")}));
        QCOMPARE(panel.state().number, QString());
        QCOMPARE(panel.state().amount, 0);

        panel.setState(sale(Stage::Recharged, QStringLiteral("cash")));
        QVERIFY(timer->isActive());
        panel.setState(sale(Stage::ToPay, QStringLiteral("cash")));
        QVERIFY(!timer->isActive());
    }

    void devanagariIsDrawn()
    {
        CustomerDisplayPanel panel;
        panel.setState(sale(Stage::Idle, QString()));
        shot(panel, QStringLiteral("devanagari"));
        auto *shopName = panel.findChild<QLabel *>(QStringLiteral("customerShopName"));
        QVERIFY(shopName);
        QCOMPARE(shopName->text(), kShop);
        QVERIFY2(drawnWithRealGlyphs(*shopName),
                 "Devanagari has no font: install fonts-noto-core (packaging/install-deps.sh)");
        panel.setState(sale(Stage::ToPay, QStringLiteral("upi")));
        auto *caption = panel.findChild<QLabel *>(QStringLiteral("upiQrCaption"));
        QVERIFY(caption);
        QVERIFY(drawnWithRealGlyphs(*caption));
    }

    void windowOnScreen()
    {
        // The clerk's window keeps the keyboard: the customer's window is never asked to take it (the offscreen
        // platform activates every window it shows, so this is checked by the request, not by the active window).
        QTest::failOnWarning(QRegularExpression(QStringLiteral("requestActivate")));
        CustomerDisplayWindow window;
        QVERIFY(window.isWindow());
        QVERIFY(window.testAttribute(Qt::WA_ShowWithoutActivating));
        QVERIFY(window.windowFlags().testFlag(Qt::WindowDoesNotAcceptFocus));
        QVERIFY(window.showOnScreen(0));
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.isFullScreen());
        QCOMPARE(window.screen(), QGuiApplication::screens().at(0));
        QCOMPARE(window.geometry(), QGuiApplication::screens().at(0)->geometry());
        window.panel()->setState(sale(Stage::ToPay, QStringLiteral("upi")));
        QVERIFY(shownTexts(*window.panel()).contains(QStringLiteral("₹299.00")));
        // No such screen: the primary one, and the caller told so.
        CustomerDisplayWindow other;
        QVERIFY(!other.showOnScreen(int(QGuiApplication::screens().size())));
        QVERIFY(other.isFullScreen());
        QCOMPARE(other.screen(), QGuiApplication::primaryScreen());
    }
};

QTEST_MAIN(TestUiCustomerDisplay)
#include "tst_ui_customerdisplay.moc"
