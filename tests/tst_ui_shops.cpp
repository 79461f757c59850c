// Issue 30 in the back office, typed into the real widgets against the real server: the distributor's Shops tab — a
// shop added by keyboard (its key shown once with the connect lines), topped up, given a credit limit, suspended and
// resumed, found by the search and sorted by the server, its statement on screen, as CSV and as PDF — and the Fund
// requests tab: a request approved (the shop credited once) and one rejected, a duplicate UTR flagged, the slip shown.
#include "backoffice/backofficeview.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/reportview.h"
#include "backoffice/secretdialog.h"
#include "fundrequestsapi.h"
#include "shops/addshopdialog.h"
#include "shops/fundrequestspane.h"
#include "shops/marginsdialog.h"
#include "shops/shopdetailpane.h"
#include "shops/shopkeysdialog.h"
#include "shops/shoplistmodel.h"
#include "shops/shoplistpane.h"
#include "shops/shopspage.h"
#include "shops/statementdialog.h"
#include "shopsapi.h"
#include "store/walletrepository.h"
#include "terminalfixture.h"
#include "validators.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBrush>
#include <QBuffer>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include <optional>

namespace {

constexpr int kTimeoutMs = 10'000;
const QString kShots = QStringLiteral("/tmp/i30/shots");

/// Waits for a typed call's answer (the terminal's ApiClient is asynchronous).
template <class T> Answer<T> await(const TypedCall<T> &call)
{
    std::optional<Answer<T>> answer;
    QObject context;
    call.then(&context, [&answer](const Answer<T> &reply) { answer = reply; });
    if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, kTimeoutMs))
        qWarning("no answer in %d ms", kTimeoutMs);
    return answer.value_or(Answer<T>{});
}

/// Saves `widget` once its layouts settle as /tmp/i30/shots/NAME.png (looked at by a person).
void saveShot(QWidget &widget, const QString &name)
{
    settleLayouts();
    QDir().mkpath(kShots);
    QVERIFY(widget.grab().save(kShots + QLatin1Char('/') + name + QStringLiteral(".png")));
}

/// A small PNG photo of a bank slip.
QByteArray slipPng()
{
    QImage image(360, 220, QImage::Format_RGB32);
    image.fill(QColor(0xf2, 0xf4, 0xf7));
    QPainter painter(&image);
    painter.setPen(Qt::black);
    painter.drawRect(8, 8, 343, 203);
    painter.drawText(QRect(20, 20, 320, 180), Qt::AlignLeft | Qt::TextWordWrap,
                     QStringLiteral("STATE BANK OF INDIA\nCash deposit slip\nA/c Sharma Distributors\n"
                                    "Amount: Rs 5,000.00\nUTR SBIN426512345678"));
    painter.end();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

/// A shop as the distributor added it: its account id and live pos key.
struct AddedShop
{
    qint64 id = 0;
    QString name;
    QString keyId;
    QString secret;
};

/// The real server as a distributor: a test pos key (the terminal's) with the admin Owner signed in (live authority
/// by the session), the Back office in a 1366×768 window on its Shops tab.
struct Distributor : TerminalFixture
{
    Distributor() : TerminalFixture({}, Scope::Pos)
    {
        context.setShop(QStringLiteral("Sharma Distributors"), QStringLiteral("Station Road, Jaipur"));
        signInAdmin();
    }

    /// Adds a shop over the API (as another admin would); a warning and id 0 when refused.
    AddedShop add(const QString &name, const QString &owner, const QString &mobile, const QString &circle)
    {
        const HttpResult result = server.http().postJson(server.url(QStringLiteral("/api/v1/shops")),
                                                         QJsonObject{{QStringLiteral("name"), name},
                                                                     {QStringLiteral("owner"), owner},
                                                                     {QStringLiteral("mobile"), mobile},
                                                                     {QStringLiteral("circle_code"), circle}},
                                                         server.liveAdmin());
        if (result.status != 201)
            qWarning("add %s: %d %s", qPrintable(name), result.status, result.body.constData());
        const QJsonObject data = result.data();
        const QJsonObject key = data.value(QStringLiteral("key")).toObject();
        return {data.value(QStringLiteral("shop")).toObject().value(QStringLiteral("id")).toInteger(), name,
                key.value(QStringLiteral("key_id")).toString(), key.value(QStringLiteral("key_secret")).toString()};
    }

    /// Tops the shop up over the API by `rupees` (cash).
    void topUp(qint64 id, qint64 rupees)
    {
        const HttpResult result = server.http().postJson(
            server.url(QStringLiteral("/api/v1/shops/%1/topups").arg(id)),
            QJsonObject{{QStringLiteral("amount"), rupees}, {QStringLiteral("method"), QStringLiteral("cash")}},
            server.liveAdmin());
        if (result.status != 201)
            qWarning("top-up: %d %s", result.status, result.body.constData());
    }

    /// Sets the shop's credit limit over the API (whole rupees).
    void setLimit(qint64 id, qint64 rupees)
    {
        const HttpResult result =
            server.http().sendJson("PUT", server.url(QStringLiteral("/api/v1/shops/%1/credit-limit").arg(id)),
                                   server.liveAdmin(), QJsonObject{{QStringLiteral("credit_limit"), rupees}});
        if (result.status != 200)
            qWarning("limit: %d %s", result.status, result.body.constData());
    }

    /// Moves the shop's live wallet by `paise` with a ledger row as sales would (for the looks of a busy day).
    void spend(qint64 id, Paise paise)
    {
        WalletRepository wallets(server.db());
        WriteTransaction transaction(server.db());
        wallets.post(id, Mode::Live, -paise, LedgerKind::Debit, 0, QStringLiteral("sales of the day"),
                     QStringLiteral("system"), QDateTime::currentMSecsSinceEpoch());
        transaction.commit();
    }

    /// The shop's live wallet balance, paise, from the database.
    Paise balance(qint64 id)
    {
        return sql(QStringLiteral("SELECT balance FROM wallets WHERE account_id = ? AND mode = 'live'"), {id});
    }
};

/// The Back office of `distributor` at 1366×768, active, on its Shops tab (the list loaded).
struct ShopsWindow
{
    explicit ShopsWindow(Distributor &distributor)
    {
        auto *layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        view = new BackOfficeView(distributor.context, &window);
        layout->addWidget(view);
        window.resize(1366, 768);
        window.show();
        QApplication::setActiveWindow(&window);
        if (!QTest::qWaitForWindowActive(&window))
            qWarning("the window did not become active");
        view->setCurrentWidget(view->shopsPage());
        page = view->shopsPage();
        list = page->shops();
    }
    ShopListModel &model() const { return *list->model(); }
    /// Waits until the list has loaded with `rows` rows.
    bool waitRows(int rows) const
    {
        return QTest::qWaitFor(
            [this, rows] { return !model().collection()->isLoading() && model().rowCount() == rows; }, kTimeoutMs);
    }
    /// Selects the row of shop `id` (false when it is not loaded).
    bool select(qint64 id) const
    {
        const int row = model().rowOf(id);
        if (row < 0)
            return false;
        list->table()->setCurrentIndex(model().index(row, 0));
        return list->detail()->shop() && list->detail()->shop()->id == id;
    }
    /// The dialog named `name` once it is on screen (nullptr after 10 s).
    template <class T = QDialog> QPointer<T> dialog(const char *name) const
    {
        T *found = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                found = window.findChild<T *>(QLatin1String(name));
                return found && found->isVisible();
            },
            kTimeoutMs);
        if (!shown)
            qWarning("no dialog %s on screen", name);
        return shown ? QPointer<T>(found) : QPointer<T>();
    }

    QWidget window;
    BackOfficeView *view = nullptr;
    ShopsPage *page = nullptr;
    ShopListPane *list = nullptr;
};

/// Clicks the key `key` with Alt, as a person uses a mnemonic, on the focus widget (else `window`).
void alt(Qt::Key key, QWidget *window = nullptr)
{
    QWidget *target = QApplication::focusWidget() ? QApplication::focusWidget() : window;
    if (!target)
        target = QApplication::activeWindow();
    QVERIFY2(target, "no widget to type into");
    QTest::keyClick(target, key, Qt::AltModifier);
}

/// Types `text` into the focused widget, then Tab.
void typeThenTab(const QString &text)
{
    QTest::keyClicks(QApplication::focusWidget(), text);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
}

} // namespace

class TestUiShops final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void gstinCheck_data()
    {
        QTest::addColumn<QString>("gstin");
        QTest::addColumn<bool>("valid");
        QTest::newRow("valid") << QStringLiteral("27AAPFU0939F1ZV") << true;
        QTest::newRow("valid Karnataka") << QStringLiteral("29AAGCB7383J1Z4") << true;
        QTest::newRow("wrong check character") << QStringLiteral("27AAPFU0939F1ZW") << false;
        QTest::newRow("lower case") << QStringLiteral("27aapfu0939f1zv") << false;
        QTest::newRow("14 characters") << QStringLiteral("27AAPFU0939F1Z") << false;
        QTest::newRow("no Z") << QStringLiteral("27AAPFU0939F1YV") << false;
    }
    void gstinCheck()
    {
        // The add-shop form refuses what the server refuses, before sending (Validators::isGstin, one implementation).
        QFETCH(QString, gstin);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isGstin(gstin), valid);
    }

    void emptyStateThenAddShopByKeyboard()
    {
        Distributor distributor;
        ShopsWindow shops(distributor);
        auto *empty = child<QWidget>(*shops.page, "shopsEmpty");
        QTRY_VERIFY_WITH_TIMEOUT(empty->isVisible(), kTimeoutMs);
        QVERIFY(!shops.list->detail()->isVisible());
        saveShot(shops.window, QStringLiteral("shops-empty"));

        // Alt+A on the empty page opens the form; everything is typed.
        child<QPushButton>(*empty, "addFirstShop")->setFocus();
        alt(Qt::Key_A);
        auto form = shops.dialog("addShopDialog");
        QVERIFY(form);
        QTRY_VERIFY(child<QLineEdit>(*form, "shopName")->hasFocus());
        typeThenTab(QStringLiteral("Gupta Telecom"));
        typeThenTab(QStringLiteral("Rakesh Gupta"));
        typeThenTab(QStringLiteral("+91 98290 12345"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("Raj")); // the circle drop-down: Rajasthan
        QCOMPARE(child<QComboBox>(*form, "shopCircle")->currentData().toString(), QStringLiteral("RJ"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        // A GSTIN with a wrong check character is refused at its field, before anything is sent.
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("08aapfu0939f1zx"));
        QCOMPARE(child<QLineEdit>(*form, "shopGstin")->text(), QStringLiteral("08AAPFU0939F1ZX"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY(child<QLineEdit>(*form, "shopGstin")->hasFocus());
        QCOMPARE(distributor.sql(QStringLiteral("SELECT COUNT(*) FROM shops")), 0);
        saveShot(*form, QStringLiteral("add-shop-dialog"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backspace);
        QTest::keyClicks(QApplication::focusWidget(),
                         QString(Validators::gstinCheckCharacter(QStringLiteral("08AAPFU0939F1Z"))));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);

        // The key is shown once, with the lines the shop runs to connect, and copied by keyboard.
        auto secret = shops.dialog<SecretDialog>("secretDialog");
        QVERIFY(secret);
        QTRY_VERIFY_WITH_TIMEOUT(!form || !form->isVisible(), kTimeoutMs);
        const QString secretText = child<QLineEdit>(*secret, "secretValue")->text();
        QCOMPARE(secretText.size(), 32);
        const QString lines = child<QPlainTextEdit>(*secret, "connectLines")->toPlainText();
        QVERIFY2(lines.contains(QStringLiteral("rechargedesk upstream set")), qPrintable(lines));
        QVERIFY2(lines.contains(distributor.server.baseUrl().authority()), qPrintable(lines));
        QVERIFY(lines.contains(QStringLiteral("--key-id live_")));
        QVERIFY(lines.contains(QStringLiteral("--key-secret-file secret.txt")));
        saveShot(*secret, QStringLiteral("add-shop-key-once"));
        child<QPushButton>(*secret, "copyConnectLines")->click();
        QCOMPARE(QApplication::clipboard()->text(), lines);
        QTest::keyClick(secret, Qt::Key_D, Qt::AltModifier); // "I have saved it — Done"
        QTRY_VERIFY(!secret || !secret->isVisible());

        // The list shows the new shop, selected, in words.
        QVERIFY(shops.waitRows(1));
        QTRY_VERIFY(shops.list->detail()->shop().has_value());
        QCOMPARE(shops.list->detail()->shop()->name, QStringLiteral("Gupta Telecom"));
        QCOMPARE(shops.list->detail()->shop()->mobile, QStringLiteral("9829012345"));
        QCOMPARE(shops.list->detail()->shop()->circleCode, QStringLiteral("RJ"));
        QCOMPARE(distributor.sql(QStringLiteral("SELECT COUNT(*) FROM shops WHERE gstin = '08AAPFU0939F1Z%1'")
                                     .arg(Validators::gstinCheckCharacter(QStringLiteral("08AAPFU0939F1Z")))),
                 1);
        // The key works: its secret reaches the server as the shop's (it may not list shops).
        const QString keyId = lines.section(QStringLiteral("--key-id "), 1).section(QLatin1Char(' '), 0, 0);
        QCOMPARE(
            distributor.server.http()
                .get(distributor.server.url(QStringLiteral("/api/v1/wallet")), HttpClient::basic(keyId, secretText))
                .status,
            200);
    }

    void topUpLimitSuspendResume()
    {
        Distributor distributor;
        const AddedShop gupta = distributor.add(QStringLiteral("Gupta Telecom"), QStringLiteral("Rakesh Gupta"),
                                                QStringLiteral("9829012345"), QStringLiteral("RJ"));
        QVERIFY(gupta.id > 0);
        ShopsWindow shops(distributor);
        QVERIFY(shops.waitRows(1));
        QAbstractItemModelTester tester(&shops.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(shops.select(gupta.id));
        ShopDetailPane *detail = shops.list->detail();

        // Top up… (Alt+T): UPI needs its reference; then ₹5,000 by UPI with a UTR.
        shops.list->table()->setFocus();
        alt(Qt::Key_T);
        auto topUp = shops.dialog("topUpDialog");
        QVERIFY(topUp);
        QTRY_VERIFY(child<QLineEdit>(*topUp, "topUpAmount")->hasFocus());
        typeThenTab(QStringLiteral("5000"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("U")); // Paid by: UPI
        QCOMPARE(child<QComboBox>(*topUp, "topUpMethod")->currentData().toString(), QStringLiteral("upi"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY(child<QLineEdit>(*topUp, "topUpReference")->hasFocus()); // refused here: no reference
        QCOMPARE(distributor.balance(gupta.id), 0);
        saveShot(*topUp, QStringLiteral("top-up-dialog"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("UTR4242000111"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!topUp || !topUp->isVisible(), kTimeoutMs);
        QCOMPARE(distributor.balance(gupta.id), 500000);
        QTRY_COMPARE(child<QLabel>(*detail, "shopBalance")->text(), QStringLiteral("₹5,000.00"));
        QCOMPARE(distributor.sql(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE account_id = ? AND mode = "
                                                "'live' AND kind = 'topup' AND note LIKE '%4242000111%'"),
                                 {gupta.id}),
                 1);

        // Credit limit… (Alt+L): ₹2,000.
        alt(Qt::Key_L);
        auto limit = shops.dialog("creditLimitDialog");
        QVERIFY(limit);
        QTRY_VERIFY(child<QLineEdit>(*limit, "creditLimit")->hasFocus());
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("2000")); // replaces the selected 0
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!limit || !limit->isVisible(), kTimeoutMs);
        QCOMPARE(distributor.sql(QStringLiteral("SELECT credit_limit FROM shops WHERE account_id = ?"), {gupta.id}),
                 200000);
        QTRY_COMPARE(child<QLabel>(*detail, "shopLimit")->text(), QStringLiteral("₹2,000.00"));
        QCOMPARE(child<QLabel>(*detail, "shopAvailable")->text(), QStringLiteral("₹7,000.00"));
        QTRY_COMPARE(shops.model().index(0, ShopListModel::CreditLimit).data().toString(), QStringLiteral("₹2,000.00"));

        // Suspend… (Alt+U) asks for the reason; the row then says Suspended, greyed; Resume (Alt+U) confirms.
        alt(Qt::Key_U);
        auto suspend = shops.dialog("reasonDialog");
        QVERIFY(suspend);
        QTRY_VERIFY(child<QLineEdit>(*suspend, "reasonText")->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return); // no reason: refused in the dialog
        QVERIFY(suspend->isVisible());
        QVERIFY(child<QLabel>(*suspend, "fieldError")->isVisible());
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("Unpaid since 3 weeks"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!suspend || !suspend->isVisible(), kTimeoutMs);
        QCOMPARE(distributor.sql(QStringLiteral("SELECT COUNT(*) FROM shops WHERE account_id = ? AND state = "
                                                "'suspended'"),
                                 {gupta.id}),
                 1);
        QTRY_COMPARE(shops.model().index(0, ShopListModel::State).data().toString(), QStringLiteral("Suspended"));
        QVERIFY(shops.model().index(0, ShopListModel::Name).data(Qt::ForegroundRole).isValid()); // greyed
        QVERIFY(child<QLabel>(*detail, "shopState")->text().contains(QStringLiteral("Unpaid since 3 weeks")));
        QTRY_COMPARE(detail->suspendButton()->text(), QStringLiteral("Res&ume"));
        saveShot(shops.window, QStringLiteral("shop-suspended"));
        // The shop's key is refused now.
        const HttpResult refused = distributor.server.http().get(distributor.server.url(QStringLiteral("/api/v1/shop")),
                                                                 HttpClient::basic(gupta.keyId, gupta.secret));
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.json()[QStringLiteral("error")][QStringLiteral("reason")].toString(),
                 QStringLiteral("account_suspended"));
        shops.list->table()->setFocus();
        alt(Qt::Key_U);
        QVERIFY(pressConfirm(shops.window));
        QTRY_COMPARE_WITH_TIMEOUT(
            distributor.sql(QStringLiteral("SELECT COUNT(*) FROM shops WHERE account_id = ? AND state = 'active'"),
                            {gupta.id}),
            1, kTimeoutMs);
        QTRY_COMPARE(shops.model().index(0, ShopListModel::State).data().toString(), QStringLiteral("Active"));
    }

    void searchAndSortAreTheServers()
    {
        Distributor distributor;
        const AddedShop gupta = distributor.add(QStringLiteral("Gupta Telecom"), QStringLiteral("Rakesh Gupta"),
                                                QStringLiteral("9829012345"), QStringLiteral("RJ"));
        const AddedShop verma = distributor.add(QStringLiteral("Verma Recharge"), QStringLiteral("Sunita Verma"),
                                                QStringLiteral("9414011111"), QStringLiteral("RJ"));
        const AddedShop khan = distributor.add(QStringLiteral("Khan Mobile Point"), QStringLiteral("Imran Khan"),
                                               QStringLiteral("9001122334"), QStringLiteral("UW"));
        distributor.topUp(gupta.id, 300);
        distributor.topUp(verma.id, 1200);
        distributor.topUp(khan.id, 50);
        distributor.spend(khan.id, 20000); // -₹150.00
        ShopsWindow shops(distributor);
        QVERIFY(shops.waitRows(3));

        // The search asks the server (q): the owner's name finds the shop.
        auto *search = child<QLineEdit>(*shops.list, "shopSearch");
        search->setFocus();
        alt(Qt::Key_H);
        QTRY_VERIFY(search->hasFocus());
        QTest::keyClicks(search, QStringLiteral("sunita"));
        QVERIFY(shops.waitRows(1));
        QCOMPARE(shops.model().collection()->query().queryItemValue(QStringLiteral("q")), QStringLiteral("sunita"));
        QCOMPARE(shops.model().shop(0)->name, QStringLiteral("Verma Recharge"));
        search->clear();
        QVERIFY(shops.waitRows(3));

        // A header click sorts on the server: balance ascending, then descending; the negative one is red.
        QHeaderView *header = shops.list->table()->horizontalHeader();
        const auto clickHeader = [header](int column) {
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                              QPoint(header->sectionViewportPosition(column) + 10, header->height() / 2));
        };
        clickHeader(ShopListModel::Balance);
        QTRY_COMPARE(shops.model().collection()->query().queryItemValue(QStringLiteral("sort")),
                     QStringLiteral("balance"));
        QVERIFY(shops.waitRows(3));
        const auto names = [&shops] {
            QStringList list;
            for (int row = 0; row < shops.model().rowCount(); ++row)
                list << shops.model().shop(row)->name;
            return list;
        };
        const QString order = shops.model().collection()->query().queryItemValue(QStringLiteral("order"));
        const QStringList ascending{khan.name, gupta.name, verma.name};
        QStringList descending = ascending;
        std::reverse(descending.begin(), descending.end());
        QCOMPARE(names(), order == QLatin1String("asc") ? ascending : descending);
        clickHeader(ShopListModel::Balance);
        QTRY_VERIFY(shops.model().collection()->query().queryItemValue(QStringLiteral("order")) != order);
        QVERIFY(shops.waitRows(3));
        QCOMPARE(names(), order == QLatin1String("asc") ? descending : ascending);
        const int khanRow = shops.model().rowOf(khan.id);
        QCOMPARE(shops.model().index(khanRow, ShopListModel::Balance).data().toString(), QStringLiteral("-₹150.00"));
        QCOMPARE(shops.model().index(khanRow, ShopListModel::Balance).data(Qt::ForegroundRole).value<QBrush>().color(),
                 QColor(0xb4, 0x23, 0x18));
        // The owner's column is hidden (the detail pane shows it); the money columns and the state stay in view.
        QVERIFY(
            shops.list->findChild<QTableView *>(QStringLiteral("shopsTable"))->isColumnHidden(ShopListModel::Owner));
        // The state filter asks the server too.
        auto *state = child<QComboBox>(*shops.list, "shopStateFilter");
        state->setCurrentIndex(state->findData(QStringLiteral("suspended")));
        QVERIFY(shops.waitRows(0));
        QVERIFY(child<QLabel>(*shops.list, "shopsMessage")->text().contains(QStringLiteral("No shop matches")));
        // F5 reloads the page on screen.
        state->setCurrentIndex(0);
        QVERIFY(shops.waitRows(3));
        distributor.add(QStringLiteral("Joshi Communication"), QStringLiteral("Anil Joshi"),
                        QStringLiteral("9829055555"), QStringLiteral("RJ"));
        QTest::keyClick(shops.list->table(), Qt::Key_F5);
        QVERIFY(shops.waitRows(4));
    }

    void statementOnScreenCsvAndPdf()
    {
        Distributor distributor;
        const AddedShop gupta = distributor.add(QStringLiteral("Gupta Telecom"), QStringLiteral("Rakesh Gupta"),
                                                QStringLiteral("9829012345"), QStringLiteral("RJ"));
        distributor.topUp(gupta.id, 5000);
        distributor.spend(gupta.id, 123450);
        distributor.topUp(gupta.id, 1000);
        ShopsWindow shops(distributor);
        QVERIFY(shops.waitRows(1));
        QTRY_VERIFY(shops.select(gupta.id));
        shops.list->table()->setFocus();
        alt(Qt::Key_E);
        auto statement = shops.dialog<StatementDialog>("statementDialog");
        QVERIFY(statement);
        QTRY_VERIFY_WITH_TIMEOUT(statement->statement().has_value(), kTimeoutMs);
        // On screen: opening ₹0.00 (the month began before the shop), closing = the wallet, three lines.
        QCOMPARE(statement->statement()->lines.size(), 3);
        QCOMPARE(child<QLabel>(*statement, "openingBalance")->text(), QStringLiteral("₹0.00"));
        QCOMPARE(child<QLabel>(*statement, "closingBalance")->text(), QStringLiteral("₹4,765.50"));
        QCOMPARE(statement->statement()->closing, distributor.balance(gupta.id));
        auto *lines = child<QTableWidget>(*statement, "linesTable");
        QCOMPARE(lines->rowCount(), 3);
        QCOMPARE(lines->item(1, 4)->text(), QStringLiteral("-₹1,234.50"));
        saveShot(*statement, QStringLiteral("statement-on-screen"));

        QTemporaryDir dir;
        // Export CSV… (Alt+C): the server's CSV, every line, saved where the file dialog says.
        alt(Qt::Key_C, statement);
        auto files = shops.dialog<QFileDialog>("statementCsvDialog");
        QVERIFY(files);
        const QString csvPath = dir.filePath(QStringLiteral("gupta.csv"));
        files->selectFile(csvPath);
        static_cast<QDialog *>(files.data())->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(csvPath), kTimeoutMs);
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString content = QString::fromUtf8(csv.readAll());
        QVERIFY2(content.count(QLatin1Char('\n')) >= 4, qPrintable(content)); // header, opening, 3 lines, closing
        QVERIFY2(content.contains(QStringLiteral("1234.50")) || content.contains(QStringLiteral("1,234.50")),
                 qPrintable(content));
        QTRY_VERIFY(child<QLabel>(*statement, "statementMessage")->text().contains(QStringLiteral("gupta.csv")));

        // Save PDF… (Alt+P): an A4 PDF.
        QApplication::setActiveWindow(statement);
        child<QWidget>(*statement, "statementFrom")->setFocus();
        QTRY_VERIFY(statement->isAncestorOf(QApplication::focusWidget()));
        alt(Qt::Key_P, statement);
        files = shops.dialog<QFileDialog>("statementPdfDialog");
        QVERIFY(files);
        const QString pdfPath = dir.filePath(QStringLiteral("gupta.pdf"));
        files->selectFile(pdfPath);
        static_cast<QDialog *>(files.data())->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pdfPath), kTimeoutMs);
        QFile pdf(pdfPath);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        QTRY_VERIFY(child<QLabel>(*statement, "statementMessage")->text().contains(QStringLiteral("gupta.pdf")));
    }

    void fundRequestsApproveAndReject()
    {
        Distributor distributor;
        const AddedShop gupta = distributor.add(QStringLiteral("Gupta Telecom"), QStringLiteral("Rakesh Gupta"),
                                                QStringLiteral("9829012345"), QStringLiteral("RJ"));
        const AddedShop verma = distributor.add(QStringLiteral("Verma Recharge"), QStringLiteral("Sunita Verma"),
                                                QStringLiteral("9414011111"), QStringLiteral("RJ"));
        ApiClient guptaApi(distributor.server.baseUrl(), gupta.keyId, gupta.secret);
        ApiClient vermaApi(distributor.server.baseUrl(), verma.keyId, verma.secret);
        const Answer<FundRequest> first = await(FundRequestsApi(guptaApi).create(
            500000, QStringLiteral("cash_deposit"), QStringLiteral("SBIN426512345678"), QStringLiteral("fr-1"),
            QStringLiteral("Deposited at SBI Station Road"), FundRequestSlip{QStringLiteral("image/png"), slipPng()}));
        QVERIFY2(first.ok(), first.error ? qPrintable(first.error->description()) : "no answer");
        const Answer<FundRequest> second = await(FundRequestsApi(vermaApi).create(
            200000, QStringLiteral("upi"), QStringLiteral("SBIN426512345678"), QStringLiteral("fr-2"), QString()));
        QVERIFY(second.ok());
        const Answer<FundRequest> third = await(FundRequestsApi(vermaApi).create(
            150000, QStringLiteral("bank"), QStringLiteral("HDFC0000777"), QStringLiteral("fr-3"), QString()));
        QVERIFY(third.ok());

        ShopsWindow shops(distributor);
        shops.page->tabs()->setFocus();
        alt(Qt::Key_F); // the Fund requests sub-tab
        FundRequestsPane *pane = shops.page->fundRequests();
        QTRY_VERIFY(pane->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(pane->model()->rowCount(), 3, kTimeoutMs);
        QAbstractItemModelTester tester(pane->table()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Oldest first; the two with one UTR say DUPLICATE UTR in words and are shaded.
        QCOMPARE(pane->table()->model()->index(0, 0).data().toString(), QString::number(first.value->id));
        QVERIFY(pane->table()->model()->index(0, 4).data().toString().contains(QStringLiteral("DUPLICATE UTR")));
        QVERIFY(pane->table()->model()->index(1, 4).data().toString().contains(QStringLiteral("DUPLICATE UTR")));
        QVERIFY(!pane->table()->model()->index(2, 4).data().toString().contains(QStringLiteral("DUPLICATE")));
        QVERIFY(pane->table()->model()->index(0, 1).data(Qt::BackgroundRole).isValid());
        QVERIFY(!pane->table()->model()->index(2, 1).data(Qt::BackgroundRole).isValid());
        // The first is selected, its slip shown.
        QTRY_VERIFY(pane->selected() && pane->selected()->id == first.value->id);
        QVERIFY(child<QLabel>(*pane, "fundDuplicate")->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!pane->slip()->pixmap().isNull(), kTimeoutMs);
        QCOMPARE(pane->slip()->pixmap().size(), QSize(360, 220));
        saveShot(shops.window, QStringLiteral("fund-requests"));

        // Approve… (Alt+A) names the shop and the amount; the shop is credited once.
        pane->table()->setFocus();
        alt(Qt::Key_A);
        auto box = shops.dialog<QMessageBox>("confirmBox");
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("Gupta Telecom")) &&
                     box->text().contains(QStringLiteral("₹5,000.00")),
                 qPrintable(box->text()));
        QVERIFY(pressConfirm(shops.window));
        QTRY_COMPARE_WITH_TIMEOUT(distributor.balance(gupta.id), 500000, kTimeoutMs);
        QTRY_COMPARE(pane->selected()->state, QStringLiteral("approved"));
        QVERIFY(!child<QPushButton>(*pane, "approveFundRequest")->isEnabled()); // decided: never twice
        QCOMPARE(distributor.sql(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE account_id = ? AND mode = "
                                                "'live' AND kind = 'topup'"),
                                 {gupta.id}),
                 1);

        // Reject… (Alt+R) the third one with a reason; no money moves. (The approved one went below the pending.)
        QCOMPARE(pane->table()->model()->index(2, 0).data().toString(), QString::number(first.value->id));
        int thirdRow = -1;
        for (int row = 0; row < pane->model()->rowCount(); ++row) {
            if (pane->model()->item(row).value(QStringLiteral("id")).toInteger() == third.value->id)
                thirdRow = row;
        }
        pane->table()->setCurrentIndex(pane->table()->model()->index(thirdRow, 0));
        QTRY_VERIFY(pane->selected() && pane->selected()->id == third.value->id);
        QApplication::setActiveWindow(&shops.window); // the confirmation box was clicked away (no window manager)
        pane->table()->setFocus();
        alt(Qt::Key_R);
        auto reject = shops.dialog("reasonDialog");
        QVERIFY(reject);
        QTRY_VERIFY(child<QLineEdit>(*reject, "reasonText")->hasFocus());
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("No such credit in our HDFC account"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!reject || !reject->isVisible(), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(distributor.sql(QStringLiteral("SELECT COUNT(*) FROM fund_requests WHERE id = ? AND "
                                                                 "state = 'rejected'"),
                                                  {third.value->id}),
                                  1, kTimeoutMs);
        QCOMPARE(distributor.balance(verma.id), 0);
        QTRY_VERIFY(child<QLabel>(*pane, "fundDetailText")->text().contains(QStringLiteral("No such credit")));
    }

    void fiveThousandShopsOpenPageByPage()
    {
        // 5,000 shops: the first 500 arrive in one answer and show at once; the rest come as the table scrolls.
        Distributor distributor;
        {
            WriteTransaction transaction(distributor.server.db());
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            for (int i = 0; i < 5000; ++i) {
                distributor.server.db().run(QStringLiteral("INSERT INTO accounts (name, created_at) VALUES (?, ?)"),
                                            {QStringLiteral("Shop %1").arg(i, 4, 10, QLatin1Char('0')), now});
                distributor.server.db().run(
                    QStringLiteral("INSERT INTO shops (account_id, owner, mobile, circle_code, state, created_at, "
                                   "updated_at) SELECT id, 'Owner', '9829000000', 'RJ', 'active', ?, ? FROM accounts "
                                   "WHERE name = ?"),
                    {now, now, QStringLiteral("Shop %1").arg(i, 4, 10, QLatin1Char('0'))});
            }
            transaction.commit();
        }
        QElapsedTimer timer;
        timer.start();
        ShopsWindow shops(distributor);
        QVERIFY(shops.waitRows(ShopListModel::kPageSize));
        qInfo("the first %d of 5,000 shops on screen in %lld ms", ShopListModel::kPageSize, timer.elapsed());
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(shops.model().collection()->canFetchMore(QModelIndex()));
        QTRY_VERIFY(child<QLabel>(*shops.list, "shopsMessage")->text().contains(QStringLiteral("scroll down")));
        shops.list->table()->setFocus();
        QTest::keyClick(shops.list->table(), Qt::Key_End, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(shops.model().rowCount() > ShopListModel::kPageSize, kTimeoutMs);
    }

    void screenshotsWithTwentyShops()
    {
        Distributor distributor;
        const QStringList names{QStringLiteral("Gupta Telecom"),     QStringLiteral("Verma Recharge"),
                                QStringLiteral("Khan Mobile Point"), QStringLiteral("Joshi Communication"),
                                QStringLiteral("Agarwal Mobiles"),   QStringLiteral("Meena Digital"),
                                QStringLiteral("Saini Phone Care"),  QStringLiteral("Rathore Telecom"),
                                QStringLiteral("Choudhary Mobile"),  QStringLiteral("Sharma Recharge Hub"),
                                QStringLiteral("Patel Cell Zone"),   QStringLiteral("Yadav Mobile Shop"),
                                QStringLiteral("Kumawat Telecom"),   QStringLiteral("Bansal Recharge"),
                                QStringLiteral("Mathur Mobiles"),    QStringLiteral("Singh Communication"),
                                QStringLiteral("Jain Mobile Care"),  QStringLiteral("Soni Telecom"),
                                QStringLiteral("Tak Mobile Point"),  QStringLiteral("Vyas Recharge")};
        const QStringList owners{QStringLiteral("Rakesh Gupta"), QStringLiteral("Sunita Verma"),
                                 QStringLiteral("Imran Khan"), QStringLiteral("Anil Joshi"),
                                 QStringLiteral("Pooja Agarwal")};
        QList<AddedShop> added;
        for (int i = 0; i < names.size(); ++i) {
            added << distributor.add(names.at(i), owners.at(i % owners.size()),
                                     QStringLiteral("98290%1").arg(10000 + i * 137), QStringLiteral("RJ"));
            distributor.topUp(added.last().id, 1000 + (i * 733) % 9000);
            if (i % 6 == 2) { // on credit: the limit first, then the day's sales take it below zero
                distributor.setLimit(added.last().id, 2000);
                distributor.spend(added.last().id, (1000 + (i * 733) % 9000 + 350 + i * 10) * 100LL);
            }
        }
        ShopsWindow shops(distributor);
        QVERIFY(shops.waitRows(20));
        QTRY_VERIFY(shops.select(added.at(3).id));
        const HttpResult suspended = distributor.server.http().postJson(
            distributor.server.url(QStringLiteral("/api/v1/shops/%1/suspend").arg(added.at(5).id)),
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("Cheque bounced")}}, distributor.server.liveAdmin());
        QCOMPARE(suspended.status, 200);
        shops.list->refresh();
        QVERIFY(shops.waitRows(20));
        QTRY_VERIFY(shops.select(added.at(2).id));
        saveShot(shops.window, QStringLiteral("shops-list-detail"));
        QTRY_VERIFY(shops.select(added.at(5).id));
        saveShot(*shops.list->detail(), QStringLiteral("shop-detail-suspended"));

        // Margins… and Keys… of a shop, as they open.
        QTRY_VERIFY(shops.select(added.at(0).id));
        shops.list->table()->setFocus();
        alt(Qt::Key_M);
        auto margins = shops.dialog<MarginsDialog>("marginsDialog");
        QVERIFY(margins);
        QTRY_VERIFY_WITH_TIMEOUT(margins->isLoaded(), kTimeoutMs);
        saveShot(*margins, QStringLiteral("margins-dialog"));
        // The first rate (Airtel) has the focus: 2.5 % for this shop, saved by Enter.
        QTRY_VERIFY(margins->rateField(QStringLiteral("AT"))->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("2.5"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!margins || !margins->isVisible(), kTimeoutMs);
        const Answer<ShopMargins> saved = await(ShopsApi(distributor.api).margins(added.at(0).id));
        QVERIFY(saved.ok());
        QCOMPARE(saved.value->discountBasisPoints.value(QStringLiteral("AT")), 250);
        QApplication::setActiveWindow(&shops.window);
        shops.list->table()->setFocus();
        alt(Qt::Key_K);
        auto keys = shops.dialog<ShopKeysDialog>("shopKeysDialog");
        QVERIFY(keys);
        QTRY_COMPARE_WITH_TIMEOUT(keys->table()->rowCount(), 1, kTimeoutMs);
        saveShot(*keys, QStringLiteral("shop-keys-dialog"));
    }
};

QTEST_MAIN(TestUiShops)
#include "tst_ui_shops.moc"
