// Hindi at the counter (issue 6, item 7): the .qm built into the program translates real strings
// (plural forms and Qt's own buttons too), the start-up choice (terminal.ini or $RECHARGEDESK_LANG),
// a terminal built in Hindi and driven through its real widgets against the real server, the
// Settings page saving the choice, and Hindi text that is not cut off at 1366×768.
#include "apiclient.h"
#include "apierror.h"
#include "backoffice/backofficeview.h"
#include "backoffice/settingspage.h"
#include "mainwindow.h"
#include "receipts/receiptdata.h"
#include "receipts/receiptrenderer.h"
#include "recordjson.h"
#include "signinpage.h"
#include "statuspanel.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminal/saleresultpanel.h"
#include "terminal/statuspoller.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "terminalview.h"
#include "uilanguage.h"
#include "users/shopsetup.h"
#include "widgets/statusbadge.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QInputMethodEvent>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 10'000;

bool isDevanagari(const QString &text)
{
    static const QRegularExpression devanagari(QStringLiteral("[\\x{0900}-\\x{097F}]"));
    return devanagari.match(text).hasMatch();
}

/// Labels and buttons of `root` (shown ones only) whose text does not fit: narrower or shorter
/// than their text needs (Devanagari lines are taller than Latin ones), or, for word-wrapped
/// labels, shorter than their wrapped lines need.
QStringList cutOffTexts(QWidget *root)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // as on screen, after a text change
    QStringList cut;
    const auto name = [](QWidget *w, const QString &text) {
        return QStringLiteral("%1 \"%2\" (%3×%4, needs %5×%6)")
            .arg(QString::fromLatin1(w->metaObject()->className()), text)
            .arg(w->width())
            .arg(w->height())
            .arg(w->sizeHint().width())
            .arg(w->sizeHint().height());
    };
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisible() || w->window()->isHidden())
            continue;
        if (auto *button = qobject_cast<QAbstractButton *>(w)) {
            if (!button->text().isEmpty() &&
                (button->width() < button->sizeHint().width() || button->height() < button->fontMetrics().height()))
                cut << name(w, button->text());
        } else if (auto *label = qobject_cast<QLabel *>(w)) {
            if (label->text().isEmpty() || label->pixmap().cacheKey() != 0)
                continue;
            const bool tooNarrow = !label->wordWrap() && (label->width() < label->sizeHint().width() ||
                                                          label->height() < label->sizeHint().height());
            const bool tooShort = label->wordWrap() && label->height() < label->heightForWidth(label->width());
            if (tooNarrow || tooShort)
                cut << name(w, label->text());
        }
    }
    return cut;
}

/// Saves a picture of `widget` when RECHARGEDESK_SHOTS_DIR names a folder (for looking at it).
void shot(QWidget &widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("RECHARGEDESK_SHOTS_DIR");
    if (!dir.isEmpty())
        widget.grab().save(QDir(dir).filePath(QStringLiteral("hi_%1.png").arg(name)));
}

QString visibleErrors(QWidget *page)
{
    QStringList texts;
    for (QLabel *label : page->findChildren<QLabel *>()) {
        if ((label->objectName() == QLatin1String("fieldError") ||
             label->objectName() == QLatin1String("generalError")) &&
            label->isVisible())
            texts << label->text();
    }
    return texts.join(u'\n');
}

/// Types `text` as a Hindi keyboard layout or input method does: committed text, not key codes
/// (QTest::keyClicks covers Latin-1 only).
void typeCommitted(QWidget *widget, const QString &text)
{
    QInputMethodEvent event;
    event.setCommitString(text);
    QCoreApplication::sendEvent(widget, &event);
}

QPushButton *buttonWithText(QWidget *root, const QString &text)
{
    for (QPushButton *button : root->findChildren<QPushButton *>()) {
        if (button->text() == text)
            return button;
    }
    return nullptr;
}

/// Installs Hindi for one test; removes it again when it goes out of scope.
class HindiForThisTest
{
public:
    HindiForThisTest() { m_installed = UiLanguage::install(QStringLiteral("hi"), &m_owner); }
    bool installed() const { return m_installed; }

private:
    QObject m_owner;
    bool m_installed = false;
};

} // namespace

class TestUiLanguage final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The product's style sheet and style, so sizes are the terminal's.
        QApplication::setStyle(QStringLiteral("Fusion"));
        QFile style(QStringLiteral(":/ui/style.qss"));
        QVERIFY(style.open(QIODevice::ReadOnly));
        qApp->setStyleSheet(QString::fromUtf8(style.readAll()));
        qunsetenv("RECHARGEDESK_LANG");
    }

    void chosenLanguage_data()
    {
        QTest::addColumn<QString>("environment");
        QTest::addColumn<QString>("iniValue");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nothing set: English") << QString() << QString() << QStringLiteral("en");
        QTest::newRow("terminal.ini says hi") << QString() << QStringLiteral("hi") << QStringLiteral("hi");
        QTest::newRow("terminal.ini says en") << QString() << QStringLiteral("en") << QStringLiteral("en");
        QTest::newRow("case and spaces ignored") << QString() << QStringLiteral(" HI ") << QStringLiteral("hi");
        QTest::newRow("unknown code: English") << QString() << QStringLiteral("fr") << QStringLiteral("en");
        QTest::newRow("environment wins") << QStringLiteral("hi") << QStringLiteral("en") << QStringLiteral("hi");
        QTest::newRow("environment en wins") << QStringLiteral("en") << QStringLiteral("hi") << QStringLiteral("en");
        QTest::newRow("unknown environment: English")
            << QStringLiteral("xx") << QStringLiteral("hi") << QStringLiteral("en");
    }
    void chosenLanguage()
    {
        QFETCH(QString, environment);
        QFETCH(QString, iniValue);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QSettings ini(dir.filePath(QStringLiteral("terminal.ini")), QSettings::IniFormat);
        if (!iniValue.isNull())
            ini.setValue(UiLanguage::settingKey(), iniValue);
        if (!environment.isNull())
            qputenv("RECHARGEDESK_LANG", environment.toUtf8());
        const QString chosen = UiLanguage::chosen(ini);
        qunsetenv("RECHARGEDESK_LANG");
        QCOMPARE(chosen, expected);
    }

    void shippedTranslation_data()
    {
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("hindi");
        QTest::newRow("sign in") << QStringLiteral("SignInPage") << QStringLiteral("Sign in")
                                 << QStringLiteral("साइन इन करें");
        QTest::newRow("navigation") << QStringLiteral("TerminalView") << QStringLiteral("Mobile recharge")
                                    << QStringLiteral("मोबाइल रिचार्ज");
        QTest::newRow("placeholder kept")
            << QStringLiteral("StatusPanel") << QStringLiteral("Wallet: %1") << QStringLiteral("वॉलेट: %1");
        QTest::newRow("key name kept") << QStringLiteral("SaleConfirmPanel") << QStringLiteral("Confirm sale (Enter)")
                                       << QStringLiteral("बिक्री पक्की करें (Enter)");
        QTest::newRow("Latin accelerator") << QStringLiteral("HistoryPage") << QStringLiteral("E&xport CSV…")
                                           << QStringLiteral("CSV एक्सपोर्ट करें (&X)…");
        QTest::newRow("receipt") << QStringLiteral("ReceiptRenderer") << QStringLiteral("Thank you")
                                 << QStringLiteral("धन्यवाद");
        QTest::newRow("Qt's own button") << QStringLiteral("QPlatformTheme") << QStringLiteral("Cancel")
                                         << QStringLiteral("रद्द करें");
    }
    void shippedTranslation()
    {
        QFETCH(QString, context);
        QFETCH(QString, source);
        QFETCH(QString, hindi);
        const QByteArray contextUtf8 = context.toUtf8();
        const QByteArray sourceUtf8 = source.toUtf8();
        {
            HindiForThisTest language;
            QVERIFY(language.installed());
            QCOMPARE(QCoreApplication::translate(contextUtf8.constData(), sourceUtf8.constData()), hindi);
        }
        // Removed with its owner: English again.
        QCOMPARE(QCoreApplication::translate(contextUtf8.constData(), sourceUtf8.constData()), source);
    }

    void pluralForms()
    {
        HindiForThisTest language;
        QVERIFY(language.installed());
        const char *source = "This screen updates itself when the operator answers (next check in %n s).";
        for (int n : {1, 2, 10}) {
            const QString text = QCoreApplication::translate("SaleResultPanel", source, nullptr, n);
            QVERIFY2(text.contains(QStringLiteral("%1 सेकंड").arg(n)), qPrintable(text));
        }
    }

    void englishAndUnknownLanguages()
    {
        QObject owner;
        QVERIFY(UiLanguage::install(QStringLiteral("en"), &owner));
        QVERIFY(!UiLanguage::install(QStringLiteral("fr"), &owner));
        QVERIFY(owner.children().isEmpty());
        QCOMPARE(QCoreApplication::translate("SignInPage", "Sign in"), QStringLiteral("Sign in"));
        QCOMPARE(UiLanguage::codes(), (QStringList{QStringLiteral("en"), QStringLiteral("hi")}));
        QCOMPARE(UiLanguage::nativeName(QStringLiteral("hi")), QStringLiteral("हिन्दी"));
    }

    void qtsOwnDialogsAndMenusInHindi()
    {
        HindiForThisTest language;
        QVERIFY(language.installed());
        QStringList untranslated;
        for (const UiLanguage::QtString &s : UiLanguage::qtStrings()) {
            const QString text = QCoreApplication::translate(s.context, s.text.source, s.text.disambiguation);
            if (!isDevanagari(text))
                untranslated << QStringLiteral("%1 \"%2\"").arg(QLatin1String(s.context), QLatin1String(s.text.source));
        }
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(u'\n')));

        // The real widgets ask Qt with exactly these strings.
        QDialogButtonBox buttons(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        QCOMPARE(buttons.button(QDialogButtonBox::Ok)->text(), QStringLiteral("ठीक है"));
        QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), QStringLiteral("रद्द करें"));
        QLineEdit edit;
        edit.setText(QStringLiteral("9876543210"));
        std::unique_ptr<QMenu> menu(edit.createStandardContextMenu());
        QStringList actions;
        for (QAction *action : menu->actions()) {
            if (!action->isSeparator())
                actions << action->text();
        }
        QVERIFY2(actions.size() >= 6, qPrintable(actions.join(u'|')));
        for (const QString &action : std::as_const(actions))
            QVERIFY2(isDevanagari(action), qPrintable(actions.join(u'|')));
    }

    void receiptInHindi()
    {
        const QJsonObject record{{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
                                 {QStringLiteral("transaction_id"), 40232},
                                 {QStringLiteral("operator"), QStringLiteral("Jio")},
                                 {QStringLiteral("type"), QStringLiteral("MOBILE")},
                                 {QStringLiteral("number"), QStringLiteral("9876543210")},
                                 {QStringLiteral("bill_amount"), QStringLiteral("₹299.00")},
                                 {QStringLiteral("discount"), QStringLiteral("₹4.49")},
                                 {QStringLiteral("paid"), QStringLiteral("₹294.51")},
                                 {QStringLiteral("transaction_status"), QStringLiteral("SUCCESS")},
                                 {QStringLiteral("reference_id"), QStringLiteral("BILL-77")},
                                 {QStringLiteral("datetime"), QStringLiteral("2024-07-14 18:45:00")}};
        const QString shop = QStringLiteral("शर्मा मोबाइल पॉइंट");
        const QString address = QStringLiteral("स्टेशन रोड, जयपुर");
        ReceiptRenderer renderer;
        const int englishHeight =
            renderer.toImage(ReceiptData::fromRecord(decodedRecord(record), shop, address), ReceiptWidth::Mm58, true)
                .height();

        HindiForThisTest language;
        QVERIFY(language.installed());
        const ReceiptData data = ReceiptData::fromRecord(decodedRecord(record), shop, address);
        QCOMPARE(data.typeTitle(), QStringLiteral("मोबाइल रिचार्ज"));
        QStringList lines;
        for (const ReceiptBlock &block : ReceiptRenderer::blocks(data, true))
            lines << block.text + u'|' + block.value;
        const QString all = lines.join(u'\n');
        for (const QString &expected : {QStringLiteral("डुप्लिकेट"), QStringLiteral("मोबाइल नं.|9876543210"),
                                        QStringLiteral("भुगतान|₹299.00"), QStringLiteral("धन्यवाद")})
            QVERIFY2(all.contains(expected), qPrintable(all));
        // Taller than the English one (Devanagari lines are taller); look at it with
        // RECHARGEDESK_SHOTS_DIR set: row labels must be shaped (ि before its consonant).
        const QImage image = renderer.toImage(data, ReceiptWidth::Mm58, true);
        QVERIFY(image.height() > englishHeight);
        const QString dir = qEnvironmentVariable("RECHARGEDESK_SHOTS_DIR");
        if (!dir.isEmpty())
            image.save(QDir(dir).filePath(QStringLiteral("hi_receipt_58mm.png")));
    }

    void terminalInHindiThroughItsWidgets()
    {
        HindiForThisTest language;
        QVERIFY(language.installed());
        TestServer server;
        QTemporaryDir dir;
        MainWindow window(terminalOptions(server, dir.path()));
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // First run, in Hindi; a PIN mismatch is refused in Hindi.
        FirstRunPage *firstRun = window.firstRunPage();
        QVERIFY(firstRun);
        QVERIFY(buttonWithText(firstRun, QStringLiteral("दुकान बनाएँ")));
        const QList<QLineEdit *> edits = firstRun->findChildren<QLineEdit *>();
        QCOMPARE(edits.size(), 5);
        QCOMPARE(edits.at(0)->placeholderText(), QStringLiteral("जैसे शर्मा मोबाइल पॉइंट"));
        QVERIFY2(cutOffTexts(firstRun).isEmpty(), qPrintable(cutOffTexts(firstRun).join(u'\n')));
        shot(window, QStringLiteral("first_run"));
        typeCommitted(edits.at(0), QStringLiteral("शर्मा मोबाइल पॉइंट"));
        typeCommitted(edits.at(1), QStringLiteral("दुकान 4, एमजी रोड, पुणे"));
        QCOMPARE(edits.at(0)->text(), QStringLiteral("शर्मा मोबाइल पॉइंट"));
        auto *circle = firstRun->findChild<QComboBox *>(QStringLiteral("homeCircle")); // issue 27: asked at first run
        QVERIFY(circle);
        circle->setCurrentIndex(circle->findData(QStringLiteral("MH")));
        QTest::keyClicks(edits.at(2), QStringLiteral("Asha"));
        QTest::keyClicks(edits.at(3), QStringLiteral("482193"));
        QTest::keyClicks(edits.at(4), QStringLiteral("482194"));
        QTest::keyClick(edits.at(4), Qt::Key_Return);
        QCOMPARE(visibleErrors(firstRun), QStringLiteral("दोनों PIN अलग-अलग हैं।"));
        edits.at(4)->clear();
        QTest::keyClicks(edits.at(4), QStringLiteral("482193"));
        QTest::keyClick(edits.at(4), Qt::Key_Return);

        // Sign-in, in Hindi.
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.signInPage(), kTimeoutMs);
        SignInPage *signIn = window.signInPage();
        auto *title = signIn->findChild<QLabel *>(QStringLiteral("pageTitle"));
        QVERIFY(title);
        QVERIFY2(isDevanagari(title->text()), qPrintable(title->text()));
        QVERIFY2(cutOffTexts(signIn).isEmpty(), qPrintable(cutOffTexts(signIn).join(u'\n')));
        shot(window, QStringLiteral("sign_in"));
        QLineEdit *name = signIn->findChildren<QLineEdit *>().at(0);
        QLineEdit *pin = signIn->findChildren<QLineEdit *>().at(1);
        QCOMPARE(name->placeholderText(), QStringLiteral("आपका नाम"));
        name->clear();
        QTest::keyClick(pin, Qt::Key_Return);
        QCOMPARE(visibleErrors(signIn), QStringLiteral("अपना नाम लिखें।"));
        QTest::keyClicks(name, QStringLiteral("Asha"));
        QTest::keyClick(name, Qt::Key_Return);
        QTest::keyClicks(pin, QStringLiteral("482193"));
        QTest::keyClick(pin, Qt::Key_Return);

        // The terminal: banner, navigation, status bar, in Hindi; the shop name as typed.
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), kTimeoutMs);
        auto *banner = window.terminalView()->findChild<QLabel *>(QStringLiteral("testModeBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY2(banner->text().startsWith(QStringLiteral("टेस्ट मोड")), qPrintable(banner->text()));
        auto *navigation = window.terminalView()->findChild<QListWidget *>(QStringLiteral("navigation"));
        QVERIFY(navigation);
        QStringList screens;
        for (int row = 0; row < navigation->count(); ++row)
            screens << navigation->item(row)->text();
        QVERIFY2(screens.contains(QStringLiteral("मोबाइल रिचार्ज   F3")), qPrintable(screens.join(u'|')));
        QVERIFY2(screens.contains(QStringLiteral("बैक ऑफ़िस   F6")), qPrintable(screens.join(u'|')));
        QTRY_VERIFY_WITH_TIMEOUT(window.statusPanel()->walletText().startsWith(QStringLiteral("वॉलेट: ₹")), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusPanel()->serverText().endsWith(QStringLiteral("ऑनलाइन")), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.context()->shopName(), QStringLiteral("शर्मा मोबाइल पॉइंट"), kTimeoutMs);
        QVERIFY2(cutOffTexts(window.terminalView()).isEmpty(),
                 qPrintable(cutOffTexts(window.terminalView()).join(u'\n')));
        shot(window, QStringLiteral("terminal"));

        // Every screen and back-office tab: Hindi text that fits, once the screen has shown what it loads.
        QApplication::setActiveWindow(&window);
        for (int row = 0; row < navigation->count(); ++row) {
            navigation->setCurrentRow(row);
            QTRY_VERIFY2_WITH_TIMEOUT(cutOffTexts(window.terminalView()).isEmpty(),
                                      qPrintable(cutOffTexts(window.terminalView()).join(u'\n')), kTimeoutMs);
            shot(window, QStringLiteral("screen%1").arg(row + 1));
        }
        auto *backOffice = window.terminalView()->findChild<BackOfficeView *>();
        QVERIFY(backOffice);
        for (int tab = 0; tab < backOffice->count(); ++tab) {
            backOffice->setCurrentIndex(tab);
            QVERIFY2(isDevanagari(backOffice->tabText(tab)), qPrintable(backOffice->tabText(tab)));
            QTRY_VERIFY2_WITH_TIMEOUT(cutOffTexts(backOffice->currentWidget()).isEmpty(),
                                      qPrintable(cutOffTexts(backOffice->currentWidget()).join(u'\n')), kTimeoutMs);
            shot(window, QStringLiteral("backoffice%1").arg(tab + 1));
        }

        // Ctrl+L locks, in Hindi.
        QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
        QTRY_COMPARE(currentPage(window), window.signInPage());
        QCOMPARE(title->text(), QStringLiteral("लॉक है — अपना PIN डालें"));
    }

    void saleConfirmAndPendingResultInHindi()
    {
        HindiForThisTest language;
        QVERIFY(language.installed());
        TerminalFixture t;
        MobileRechargePage page(t.context);
        page.resize(1156, 700); // the screen area of a 1366×768 terminal
        page.show();
        QApplication::setActiveWindow(&page);
        QVERIFY(QTest::qWaitForWindowActive(&page));
        page.flow()->poller()->setFirstDelayMs(60'000); // stays PENDING while we look

        // A number ending 1111 stays PENDING in the sandbox.
        auto *number = page.findChild<QLineEdit *>(QStringLiteral("phoneNumber"));
        QVERIFY(number);
        QTest::keyClick(number, Qt::Key_Return);
        QVERIFY2(visibleErrors(&page).startsWith(QStringLiteral("10 अंकों का मोबाइल नंबर लिखें।\nऑपरेटर चुनें।")),
                 qPrintable(visibleErrors(&page)));
        PlanItem plan;
        plan.amountRupees = 179;
        plan.validity = QStringLiteral("28 days");
        plan.benefit = QStringLiteral("2 GB/day");
        page.fillFromPlan(QStringLiteral("VI"), QStringLiteral("MU"), plan);
        QTest::keyClicks(number, QStringLiteral("9876541111"));
        QTest::keyClick(number, Qt::Key_Return);
        SaleFlow *flow = page.flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, 10000);
        QCOMPARE(flow->confirmPanel()->confirmButton()->text(), QStringLiteral("बिक्री पक्की करें (Enter)"));
        QTRY_VERIFY_WITH_TIMEOUT(flow->confirmPanel()->walletAfterLabel()->text().startsWith(u'₹'), kTimeoutMs);
        QVERIFY2(cutOffTexts(&page).isEmpty(), qPrintable(cutOffTexts(&page).join(u'\n')));
        shot(page, QStringLiteral("sale_confirm"));
        QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);

        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING")); // the code's word stays
        QCOMPARE(result->badge()->text(), QStringLiteral("⏳ पेंडिंग — ऑपरेटर के जवाब का इंतज़ार"));
        QCOMPARE(result->newSaleButton()->text(), QStringLiteral("नई बिक्री (Ctrl+N)"));
        QVERIFY2(cutOffTexts(&page).isEmpty(), qPrintable(cutOffTexts(&page).join(u'\n')));
        shot(page, QStringLiteral("sale_pending"));
    }

    void settingsPageSavesTheLanguage()
    {
        TerminalFixture t;
        QTemporaryDir &dir = t.dir;
        TerminalContext &context = t.context;
        {
            QSettings ini(dir.filePath(QStringLiteral("terminal.ini")), QSettings::IniFormat);
            ini.setValue(QStringLiteral("server/listen"), QStringLiteral("0.0.0.0:8080")); // must survive
        }
        SettingsPage page(context);
        page.resize(1160, 720);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *combo = page.findChild<QComboBox *>(QStringLiteral("language"));
        QVERIFY(combo);
        QVERIFY(combo->isEnabled());
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->itemText(0), QStringLiteral("English"));
        QCOMPARE(combo->itemText(1), QStringLiteral("हिन्दी"));
        QCOMPARE(combo->currentData().toString(), QStringLiteral("en"));
        auto *hint = page.findChild<QLabel *>(QStringLiteral("terminalIniHint"));
        QVERIFY(hint && !hint->text().contains(QStringLiteral("Only English")));

        // The clerk picks हिन्दी with the keyboard and saves.
        combo->setFocus();
        QTest::keyClick(combo, Qt::Key_Down);
        QCOMPARE(combo->currentText(), QStringLiteral("हिन्दी"));
        if (auto *scroll = page.findChild<QScrollArea *>())
            scroll->ensureWidgetVisible(combo);
        shot(page, QStringLiteral("settings_language"));
        auto *save = page.findChild<QPushButton *>(QStringLiteral("saveTerminal"));
        QVERIFY(save);
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("terminalNotice"))->isVisible());
        {
            QSettings ini(page.terminalIniPath(), QSettings::IniFormat);
            QCOMPARE(ini.value(QStringLiteral("terminal/language")).toString(), QStringLiteral("hi"));
            QCOMPARE(ini.value(QStringLiteral("server/listen")).toString(), QStringLiteral("0.0.0.0:8080"));
            QCOMPARE(UiLanguage::chosen(ini), QStringLiteral("hi")); // what the next start installs
        }

        // Read back by a new page; then English again.
        SettingsPage again(context);
        again.refresh();
        auto *againCombo = again.findChild<QComboBox *>(QStringLiteral("language"));
        QCOMPARE(againCombo->currentData().toString(), QStringLiteral("hi"));
        combo->setFocus();
        QTest::keyClick(combo, Qt::Key_Up);
        QTest::mouseClick(save, Qt::LeftButton);
        QCOMPARE(QSettings(page.terminalIniPath(), QSettings::IniFormat)
                     .value(QStringLiteral("terminal/language"))
                     .toString(),
                 QStringLiteral("en"));
    }
};

QTEST_MAIN(TestUiLanguage)
#include "tst_ui_language.moc"
