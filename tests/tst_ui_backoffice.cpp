#include "apiclient.h"
#include "backoffice/backofficeview.h"
#include "backoffice/backupcard.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/complaintspage.h"
#include "backoffice/dayendpage.h"
#include "backoffice/historypage.h"
#include "backoffice/keyspage.h"
#include "backoffice/saletermscard.h"
#include "backoffice/secretdialog.h"
#include "backoffice/settingspage.h"
#include "backoffice/shiftspage.h"
#include "backoffice/typedcolumn.h"
#include "backoffice/userspage.h"
#include "backoffice/walletpage.h"
#include "backoffice/webhookdeliveriespane.h"
#include "backoffice/webhookspage.h"
#include "money.h"
#include "shops/shopspage.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "terminalview.h"
#include "testserver.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QVBoxLayout>

namespace {

constexpr int kTimeoutMs = 10'000;

/// The real server and a terminal as `setup` makes it now (issue 12): a test **pos** key, with
/// the admin Owner signed in, whose session gives the back office its power. The shop has no
/// name yet, so the settings test sees its save arrive.
struct Shop : TerminalFixture
{
    Shop() : TerminalFixture({}, Scope::Pos)
    {
        context.setShop(QString(), QString());
        signInAdmin();
    }
};

void showPage(QWidget &page)
{
    page.resize(1160, 720); // the page area of a 1366×768 terminal
    page.show();
    QApplication::setActiveWindow(&page);
    QVERIFY(QTest::qWaitForWindowExposed(&page));
}

void shot(QWidget &widget, const char *name)
{
    widget.grab().save(QStringLiteral("/tmp/boadmin_%1.png").arg(QLatin1String(name)));
}

/// The text of `row`, `column` of a table view's model.
QString cell(QTableView *view, int row, int column)
{
    return view->model()->index(row, column).data().toString();
}

/// The row whose `column` text equals `text`, or -1.
int findRow(QTableView *view, int column, const QString &text)
{
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        if (cell(view, row, column) == text)
            return row;
    }
    return -1;
}

SecretDialog *waitForSecretDialog(QWidget &page)
{
    SecretDialog *dialog = nullptr;
    const bool shown = QTest::qWaitFor(
        [&] {
            dialog = page.findChild<SecretDialog *>(QStringLiteral("secretDialog"));
            return dialog && dialog->isVisible();
        },
        kTimeoutMs);
    return shown ? dialog : nullptr;
}

Paise balanceOf(QLabel *label)
{
    // The screen groups digits the Indian way ("₹10,000.00"); the spec form has no commas.
    return Money::parse(label->text().remove(u',')).value_or(-1);
}

/// Sells a ₹`rupees` Airtel recharge to `number` on the terminal's Mobile recharge screen, by keyboard.
bool sellOnTheCounter(TerminalView &view, const QString &number, const QString &rupees)
{
    auto *mobile = qobject_cast<MobileRechargePage *>(view.screen(QStringLiteral("mobile")));
    if (!mobile || !view.showScreen(QStringLiteral("mobile")))
        return false;
    SaleFlow *flow = mobile->flow();
    QTest::keyClicks(child<QLineEdit>(*mobile, "phoneNumber"), number);
    auto *op = child<QComboBox>(*mobile, "operator");
    op->setCurrentIndex(op->findData(QStringLiteral("AT")));
    QTest::keyClicks(child<QLineEdit>(*mobile, "amount"), rupees);
    QTest::keyClick(child<QLineEdit>(*mobile, "amount"), Qt::Key_Return);
    // The form first asks the server about recent sales to this number (the repeat-sale guard).
    if (!QTest::qWaitFor([flow] { return flow->stage() == SaleFlow::Stage::Confirm; }, kTimeoutMs))
        return false;
    QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);
    if (!QTest::qWaitFor([flow] { return flow->stage() == SaleFlow::Stage::Result; }, kTimeoutMs))
        return false;
    flow->newSale();
    return true;
}

} // namespace

class TestUiBackOffice final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The product's style sheet, so screenshots look like the terminal.
        QVERIFY(applyTerminalStyle());
    }

    void checkListen_data()
    {
        QTest::addColumn<QString>("listen");
        QTest::addColumn<bool>("valid");
        QTest::newRow("empty means default") << QString() << true;
        QTest::newRow("loopback") << QStringLiteral("127.0.0.1:8080") << true;
        QTest::newRow("all interfaces") << QStringLiteral("0.0.0.0:8080") << true;
        QTest::newRow("any port") << QStringLiteral("127.0.0.1:0") << true;
        QTest::newRow("ipv6") << QStringLiteral("[::1]:8080") << true;
        // The one rule of ListenAddress (tst_listenaddress has the whole table): IPv6 in brackets, since
        // "::1:8080" is itself an IPv6 address.
        QTest::newRow("ipv6 without brackets") << QStringLiteral("::1:8080") << false;
        QTest::newRow("no port") << QStringLiteral("127.0.0.1") << false;
        QTest::newRow("port too big") << QStringLiteral("127.0.0.1:65536") << false;
        QTest::newRow("negative port") << QStringLiteral("127.0.0.1:-1") << false;
        QTest::newRow("host name") << QStringLiteral("shop-server:8080") << false;
        QTest::newRow("no address") << QStringLiteral(":8080") << false;
        QTest::newRow("words") << QStringLiteral("localhost please") << false;
    }
    void checkListen()
    {
        QFETCH(QString, listen);
        QFETCH(bool, valid);
        QCOMPARE(SettingsPage::checkListen(listen).isEmpty(), valid);
    }

    void checkDatabase_data()
    {
        QTest::addColumn<QString>("database");
        QTest::addColumn<bool>("valid");
        QTest::newRow("empty means default") << QString() << true;
        QTest::newRow("absolute file") << QStringLiteral("/var/lib/rechargedesk/shop.db") << true;
        QTest::newRow("postgres url") << QStringLiteral("postgres://desk:pw@10.0.0.5:5432/rechargedesk") << true;
        QTest::newRow("postgresql url") << QStringLiteral("postgresql://db.local/rechargedesk") << true;
        QTest::newRow("relative file") << QStringLiteral("shop.db") << false;
        QTest::newRow("folder") << QStringLiteral("/tmp") << false;
        QTest::newRow("mysql url") << QStringLiteral("mysql://db.local/rechargedesk") << false;
        QTest::newRow("url without host") << QStringLiteral("postgres:///rechargedesk") << false;
    }
    void checkDatabase()
    {
        QFETCH(QString, database);
        QFETCH(bool, valid);
        QCOMPARE(SettingsPage::checkDatabase(database).isEmpty(), valid);
    }

    // Issue 14: a table cell of an item that does not decode says what is wrong, never a blank or a zero.
    void typedColumnsShowAnUnreadableItem()
    {
        const CollectionColumn state = TypedColumn::make<User>(QStringLiteral("State"), [](const User &u) {
            return u.active ? QStringLiteral("on") : QStringLiteral("off");
        });
        QJsonObject user{{QStringLiteral("entity"), QStringLiteral("user")},
                         {QStringLiteral("id"), 4},
                         {QStringLiteral("name"), QStringLiteral("Asha")},
                         {QStringLiteral("role"), QStringLiteral("clerk")},
                         {QStringLiteral("active"), false}};
        QCOMPARE(state.text(user), QStringLiteral("off"));
        user.remove(QStringLiteral("active"));
        QCOMPARE(state.text(user), QStringLiteral("Unreadable answer: user: field `active` is missing"));
    }

    void collectionModelPagesThroughTheAuditLog()
    {
        Shop shop;
        for (const char *name : {"Asha", "Ravi", "Meena", "Kiran", "Sunil"}) {
            const HttpResult created =
                shop.server.http().postJson(shop.server.url(QStringLiteral("/api/v1/users")),
                                            QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                                                        {QStringLiteral("role"), QStringLiteral("clerk")},
                                                        {QStringLiteral("pin"), QStringLiteral("1234")}},
                                            shop.server.liveAdmin());
            QCOMPARE(created.status, 201);
        }
        const QList<CollectionColumn> columns{{QStringLiteral("What"), [](const QJsonObject &i) {
                                                   return i.value(QStringLiteral("detail")).toString();
                                               }}};

        // Page by page, as a view asks for more.
        CollectionModel model(shop.api, QStringLiteral("/api/v1/audit-log"), columns, 2);
        QVERIFY(!model.canFetchMore(QModelIndex()));
        model.reload();
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kTimeoutMs);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.canFetchMore(QModelIndex()));
        QVERIFY(!model.isComplete());
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("added clerk Sunil")); // newest first
        while (model.canFetchMore(QModelIndex())) {
            model.fetchMore(QModelIndex());
            QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kTimeoutMs);
        }
        QVERIFY(model.isComplete());
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.index(4, 0).data().toString(), QStringLiteral("added clerk Asha"));
        QCOMPARE(model.item(4).value(QStringLiteral("action")).toString(), QStringLiteral("user.create"));
        QCOMPARE(model.index(4, 0).data(CollectionModel::ItemRole).toMap().value(QStringLiteral("action")).toString(),
                 QStringLiteral("user.create"));
        QVERIFY(model.item(5).isEmpty());

        // The same under the model tester (which itself fetches more as it checks).
        CollectionModel tested(shop.api, QStringLiteral("/api/v1/audit-log"), columns, 2);
        QAbstractItemModelTester tester(&tested, QAbstractItemModelTester::FailureReportingMode::QtTest);
        tested.reload();
        QTRY_VERIFY_WITH_TIMEOUT(tested.isComplete(), kTimeoutMs);
        QCOMPARE(tested.rowCount(), 5);
        tested.reload();
        QCOMPARE(tested.rowCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(tested.isComplete(), kTimeoutMs);
        QCOMPARE(tested.rowCount(), 5);

        // A failing page is reported and changes nothing.
        QList<ApiError> errors;
        connect(&model, &CollectionModel::failed, this, [&errors](const ApiError &error) { errors.append(error); });
        model.setQuery(QUrlQuery(QStringLiteral("cursor=abc")));
        model.reload();
        QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, kTimeoutMs);
        QCOMPARE(errors.first().field(), QStringLiteral("cursor"));
        QCOMPARE(model.rowCount(), 0);
    }

    void walletTopUpShowsBalanceAndLedgerRow()
    {
        Shop shop;
        WalletPage page(shop.context);
        QAbstractItemModelTester ledgerTester(page.ledgerModel(),
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester filterTester(page.ledgerFilter(),
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        int salesChanged = 0;
        connect(&shop.context, &TerminalContext::salesChanged, this, [&salesChanged] { ++salesChanged; });
        showPage(page);
        auto *balance = child<QLabel>(page, "walletBalance");
        QTRY_VERIFY_WITH_TIMEOUT(balanceOf(balance) >= 0, kTimeoutMs);
        const HttpResult before =
            shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/wallet")), shop.auth());
        const Paise start = before.data().value(QStringLiteral("balance_paise")).toInteger();
        QCOMPARE(balanceOf(balance), start);
        shot(page, "wallet_empty");

        // Nothing typed: a field error, no request.
        auto *amount = child<QLineEdit>(page, "topupAmount");
        auto *note = child<QLineEdit>(page, "topupNote");
        QVERIFY(amount->hasFocus());
        QTest::keyClick(amount, Qt::Key_Return);
        QTest::keyClick(note, Qt::Key_Return);
        const QList<QLabel *> errors = page.findChildren<QLabel *>(QStringLiteral("fieldError"));
        const auto visibleError = [&errors] {
            for (QLabel *label : errors) {
                if (label->isVisible())
                    return label->text();
            }
            return QString();
        };
        QVERIFY(visibleError().contains(QStringLiteral("rupees")));

        // Over the server's limit: the server's words at the amount field, balance unchanged.
        QTest::keyClicks(amount, QStringLiteral("2000000"));
        QTest::keyClick(amount, Qt::Key_Return);
        QVERIFY(note->hasFocus());
        QTest::keyClick(note, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(visibleError().contains(QStringLiteral("at most")), kTimeoutMs);
        shot(page, "wallet_error");
        QCOMPARE(shop.server.http()
                     .get(shop.server.url(QStringLiteral("/api/v1/wallet")), shop.auth())
                     .data()
                     .value(QStringLiteral("balance_paise"))
                     .toInteger(),
                 start);

        // A real top-up, all by keyboard.
        amount->clear();
        QTest::keyClicks(amount, QStringLiteral("5000"));
        QTest::keyClick(amount, Qt::Key_Return);
        QTest::keyClicks(note, QStringLiteral("cash float"));
        QTest::keyClick(note, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(balanceOf(balance), start + 500'000, kTimeoutMs);
        QVERIFY(visibleError().isEmpty());
        QVERIFY(child<QLabel>(page, "topupNotice")->text().contains(QStringLiteral("₹5,000.00")));
        QVERIFY(salesChanged >= 1);
        auto *ledger = child<QTableView>(page, "ledgerTable");
        QTRY_VERIFY_WITH_TIMEOUT(!page.ledgerModel()->isLoading() && ledger->model()->rowCount() > 0, kTimeoutMs);
        QCOMPARE(cell(ledger, 0, 1), QStringLiteral("Top-up"));
        QCOMPARE(cell(ledger, 0, 2), QStringLiteral("₹5,000.00"));
        QCOMPARE(cell(ledger, 0, 5), QStringLiteral("cash float"));
        QCOMPARE(cell(ledger, 0, 4), QStringLiteral("Owner")); // the signed-in admin, not the key
        QCOMPARE(shop.server.http()
                     .get(shop.server.url(QStringLiteral("/api/v1/wallet")), shop.auth())
                     .data()
                     .value(QStringLiteral("balance_paise"))
                     .toInteger(),
                 start + 500'000);
        shot(page, "wallet_topped_up");

        // Filters over the loaded rows.
        const int all = ledger->model()->rowCount();
        auto *kind = child<QComboBox>(page, "ledgerKind");
        kind->setCurrentIndex(kind->findData(QStringLiteral("refund")));
        QCOMPARE(ledger->model()->rowCount(), 0);
        kind->setCurrentIndex(kind->findData(QStringLiteral("topup")));
        QVERIFY(ledger->model()->rowCount() >= 1);
        for (int row = 0; row < ledger->model()->rowCount(); ++row)
            QCOMPARE(cell(ledger, row, 1), QStringLiteral("Top-up"));
        kind->setCurrentIndex(0);
        QTest::keyClicks(child<QLineEdit>(page, "ledgerSearch"), QStringLiteral("CASH FL"));
        QCOMPARE(ledger->model()->rowCount(), 1);
        child<QLineEdit>(page, "ledgerSearch")->clear();
        QCOMPARE(ledger->model()->rowCount(), all);

        // The low-balance threshold is the shop's setting.
        auto *threshold = child<QLineEdit>(page, "lowBalanceThreshold");
        QTRY_VERIFY_WITH_TIMEOUT(!threshold->text().isEmpty(), kTimeoutMs);
        threshold->clear();
        QTest::keyClicks(threshold, QStringLiteral("750"));
        QTest::keyClick(threshold, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(shop.server.http()
                                      .get(shop.server.url(QStringLiteral("/api/v1/shop")), shop.auth())
                                      .data()
                                      .value(QStringLiteral("low_balance_threshold"))
                                      .toString(),
                                  QStringLiteral("₹750.00"), kTimeoutMs);
    }

    void keysCreateShowsSecretOnceAndRevoke()
    {
        Shop shop;
        KeysPage page(shop.context);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        showPage(page);
        auto *table = child<QTableView>(page, "keysTable");
        QTRY_VERIFY_WITH_TIMEOUT(findRow(table, 0, QStringLiteral("%1 (this terminal)").arg(shop.key.keyId)) >= 0,
                                 kTimeoutMs);
        const int before = table->model()->rowCount();

        // Create a point-of-sale key by keyboard; the secret dialog shows it once.
        auto *name = child<QLineEdit>(page, "keyName");
        name->setFocus();
        QTest::keyClicks(name, QStringLiteral("Counter 2 tablet"));
        QTest::keyClick(name, Qt::Key_Return);
        SecretDialog *dialog = waitForSecretDialog(page);
        QVERIFY(dialog);
        const QString secret = child<QLineEdit>(*dialog, "secretValue")->text();
        QVERIFY2(QRegularExpression(QStringLiteral("^[A-Za-z0-9]{32}$")).match(secret).hasMatch(), qPrintable(secret));
        QVERIFY(child<QLabel>(*dialog, "secretWarning")->text().contains(QStringLiteral("not see it again")));
        dialog->resize(700, dialog->sizeHint().height());
        shot(*dialog, "keys_secret");
        QTest::mouseClick(child<QPushButton>(*dialog, "copySecret"), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), secret);
        const QString identity = child<QLabel>(*dialog, "secretIdentity")->text();
        const QString newKeyId = QRegularExpression(QStringLiteral("test_[A-Za-z0-9]{14}")).match(identity).captured();
        QVERIFY2(!newKeyId.isEmpty(), qPrintable(identity));
        QTest::mouseClick(child<QPushButton>(*dialog, "secretDone"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<SecretDialog *>(), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), before + 1, kTimeoutMs);

        // The new key works with the secret the dialog showed; it is a pos key.
        const QByteArray newAuth = HttpClient::basic(newKeyId, secret);
        QCOMPARE(shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/wallet")), newAuth).status, 200);
        QCOMPARE(shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/keys")), newAuth).status, 403);

        // Revoke it, after confirming.
        const int row = findRow(table, 0, newKeyId);
        QVERIFY(row >= 0);
        QCOMPARE(cell(table, row, 1), QStringLiteral("Counter 2 tablet"));
        QCOMPARE(cell(table, row, 5), QStringLiteral("Active"));
        table->setFocus();
        table->setCurrentIndex(table->model()->index(row, 0));
        auto *revoke = child<QPushButton>(page, "revokeKey");
        QVERIFY(revoke->isEnabled());
        QTest::mouseClick(revoke, Qt::LeftButton);
        shot(page, "keys_confirm");
        QVERIFY(pressConfirm(page));
        QTRY_VERIFY_WITH_TIMEOUT(findRow(table, 0, newKeyId) >= 0 &&
                                     cell(table, findRow(table, 0, newKeyId), 5).startsWith(QStringLiteral("Revoked")),
                                 kTimeoutMs);
        QVERIFY(shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/wallet")), newAuth).status >= 401);

        // The terminal's own key cannot revoke itself: said in words, nothing changes.
        const int own = findRow(table, 0, QStringLiteral("%1 (this terminal)").arg(shop.key.keyId));
        table->setCurrentIndex(table->model()->index(own, 0));
        QTest::mouseClick(revoke, Qt::LeftButton);
        QVERIFY(pressConfirm(page));
        auto *error = child<QLabel>(page, "keysError");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), kTimeoutMs);
        QVERIFY2(error->text().contains(QStringLiteral("cannot revoke itself")), qPrintable(error->text()));
        shot(page, "keys_own_key");
        QCOMPARE(shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/wallet")), shop.auth()).status, 200);
    }

    void walletTabOrder()
    {
        // Refresh, top-up, the low-balance threshold, then the ledger's filters and table.
        Shop shop;
        WalletPage page(shop.context);
        // The cards sit in a row above the ledger (issue 27): left to right, so Refresh (in the balance card) comes
        // first, and no scroll area of their own to stop at.
        QCOMPARE(tabOrder(page), QStringList({QStringLiteral("refreshWallet"), QStringLiteral("topupAmount"),
                                              QStringLiteral("topupNote"), QStringLiteral("topupButton"),
                                              QStringLiteral("lowBalanceThreshold"), QStringLiteral("saveThreshold"),
                                              QStringLiteral("ledgerKind"), QStringLiteral("ledgerSearch"),
                                              QStringLiteral("ledgerTable")}));
    }

    void usersTabOrder()
    {
        // The list, what can be done to the chosen person, adding a person, then the audit log.
        Shop shop;
        UsersPage page(shop.context);
        const QStringList order = tabOrder(page);
        QCOMPARE(order.mid(0, 10),
                 QStringList({QStringLiteral("usersTable"), QStringLiteral("newPin"), QStringLiteral("resetPin"),
                              QStringLiteral("deactivateUser"), QStringLiteral("userName"), QStringLiteral("userRole"),
                              QStringLiteral("userPin"), QStringLiteral("userPinAgain"), QStringLiteral("addUser"),
                              QStringLiteral("auditTable")}));
    }

    void usersAddResetDeactivateAndAudit()
    {
        Shop shop;
        UsersPage page(shop.context);
        QAbstractItemModelTester usersTester(page.usersModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester auditTester(page.auditModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        showPage(page);
        auto *users = child<QTableView>(page, "usersTable");
        auto *audit = child<QTableView>(page, "auditTable");
        QTRY_VERIFY_WITH_TIMEOUT(page.usersModel()->isComplete(), kTimeoutMs);
        shot(page, "users_empty");

        const auto addUser = [&](const QString &name, const QString &role, const QString &pin, const QString &again) {
            auto *nameEdit = child<QLineEdit>(page, "userName");
            nameEdit->setFocus();
            QTest::keyClicks(nameEdit, name);
            QTest::keyClick(nameEdit, Qt::Key_Return);
            auto *roleBox = child<QComboBox>(page, "userRole");
            QVERIFY(roleBox->hasFocus());
            roleBox->setCurrentIndex(roleBox->findData(role));
            QTest::keyClick(roleBox, Qt::Key_Tab);
            auto *pinEdit = child<QLineEdit>(page, "userPin");
            QVERIFY(pinEdit->hasFocus());
            QTest::keyClicks(pinEdit, pin);
            QTest::keyClick(pinEdit, Qt::Key_Return);
            QTest::keyClicks(child<QLineEdit>(page, "userPinAgain"), again);
            QTest::keyClick(child<QLineEdit>(page, "userPinAgain"), Qt::Key_Return);
        };

        // Two different PINs: said at the PIN, nothing created.
        addUser(QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("258025"), QStringLiteral("258026"));
        QLabel *pinError = nullptr;
        for (QLabel *label : page.findChildren<QLabel *>(QStringLiteral("fieldError"))) {
            if (label->isVisible())
                pinError = label;
        }
        QVERIFY(pinError);
        QVERIFY(pinError->text().contains(QStringLiteral("differ")));
        shot(page, "users_error");
        child<QLineEdit>(page, "userName")->clear();
        child<QLineEdit>(page, "userPin")->clear();

        // An admin's PIN needs 6 digits (issue 12): said at the PIN, nothing created.
        addUser(QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("2580"), QStringLiteral("2580"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (QLabel *label : page.findChildren<QLabel *>(QStringLiteral("fieldError"))) {
                    if (label->isVisible() && label->text().contains(QStringLiteral("6 to 8 digits")))
                        return true;
                }
                return false;
            }(),
            kTimeoutMs);
        QCOMPARE(findRow(users, 0, QStringLiteral("Asha")), -1);
        child<QLineEdit>(page, "userName")->clear();
        child<QLineEdit>(page, "userPin")->clear();
        child<QLineEdit>(page, "userPinAgain")->clear();
        addUser(QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("258025"), QStringLiteral("258025"));
        QTRY_VERIFY_WITH_TIMEOUT(findRow(users, 0, QStringLiteral("Asha")) >= 0, kTimeoutMs);
        addUser(QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1234"), QStringLiteral("1234"));
        QTRY_VERIFY_WITH_TIMEOUT(findRow(users, 0, QStringLiteral("Ravi")) >= 0, kTimeoutMs);
        QCOMPARE(cell(users, findRow(users, 0, QStringLiteral("Ravi")), 1), QStringLiteral("Clerk"));
        QCOMPARE(cell(users, findRow(users, 0, QStringLiteral("Asha")), 1), QStringLiteral("Admin"));

        // A name already taken: the server's words at the name field.
        addUser(QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1111"), QStringLiteral("1111"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (QLabel *label : page.findChildren<QLabel *>(QStringLiteral("fieldError"))) {
                    if (label->isVisible() && label->text().contains(QStringLiteral("already exists")))
                        return true;
                }
                return false;
            }(),
            kTimeoutMs);
        child<QLineEdit>(page, "userName")->clear();

        // Reset Ravi's PIN; he signs in with the new one.
        users->setCurrentIndex(users->model()->index(findRow(users, 0, QStringLiteral("Ravi")), 0));
        QVERIFY(child<QLabel>(page, "selectedUser")->text().contains(QStringLiteral("Ravi")));
        auto *newPin = child<QLineEdit>(page, "newPin");
        newPin->setFocus();
        QTest::keyClicks(newPin, QStringLiteral("5678"));
        QTest::keyClick(newPin, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "userNotice")->isVisible(), kTimeoutMs);
        QVERIFY(child<QLabel>(page, "userNotice")->text().contains(QStringLiteral("Ravi")));
        const auto signIn = [&shop](const QString &pin) {
            return shop.server.http()
                .postJson(shop.server.url(QStringLiteral("/api/v1/users/sign-in")),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("Ravi")}, {QStringLiteral("pin"), pin}},
                          shop.auth())
                .status;
        };
        QCOMPARE(signIn(QStringLiteral("5678")), 200);

        // Deactivate Ravi after confirming.
        users->setCurrentIndex(users->model()->index(findRow(users, 0, QStringLiteral("Ravi")), 0));
        QTest::mouseClick(child<QPushButton>(page, "deactivateUser"), Qt::LeftButton);
        QVERIFY(pressConfirm(page));
        QTRY_VERIFY_WITH_TIMEOUT(findRow(users, 0, QStringLiteral("Ravi")) >= 0 &&
                                     cell(users, findRow(users, 0, QStringLiteral("Ravi")), 2) ==
                                         QStringLiteral("Deactivated"),
                                 kTimeoutMs);
        QVERIFY(signIn(QStringLiteral("5678")) != 200);

        // The audit log shows what happened, newest first.
        QTRY_VERIFY_WITH_TIMEOUT(audit->model()->rowCount() >= 4 && !page.auditModel()->isLoading(), kTimeoutMs);
        QCOMPARE(cell(audit, 0, 2), QStringLiteral("Deactivated a user"));
        QCOMPARE(cell(audit, 0, 3), QStringLiteral("deactivated clerk Ravi"));
        QCOMPARE(cell(audit, 1, 2), QStringLiteral("Reset a PIN"));
        QCOMPARE(cell(audit, 2, 3), QStringLiteral("added clerk Ravi"));
        QCOMPARE(cell(audit, 3, 3), QStringLiteral("added admin Asha"));
        QCOMPARE(cell(audit, 0, 1), QStringLiteral("Owner")); // the signed-in admin, not the key
        shot(page, "users_audit");

        // Asha goes; then Owner is the last active admin: refused, in words.
        users->setCurrentIndex(users->model()->index(findRow(users, 0, QStringLiteral("Asha")), 0));
        QTest::mouseClick(child<QPushButton>(page, "deactivateUser"), Qt::LeftButton);
        QVERIFY(pressConfirm(page));
        QTRY_VERIFY_WITH_TIMEOUT(
            cell(users, findRow(users, 0, QStringLiteral("Asha")), 2) == QStringLiteral("Deactivated"), kTimeoutMs);
        users->setCurrentIndex(users->model()->index(findRow(users, 0, QStringLiteral("Owner")), 0));
        QTest::mouseClick(child<QPushButton>(page, "deactivateUser"), Qt::LeftButton);
        QVERIFY(pressConfirm(page));
        auto *actionError = child<QLabel>(page, "userActionError");
        QTRY_VERIFY_WITH_TIMEOUT(actionError->isVisible(), kTimeoutMs);
        QVERIFY(actionError->text().contains(QStringLiteral("last active admin")));
        QCOMPARE(cell(users, findRow(users, 0, QStringLiteral("Owner")), 2), QStringLiteral("Active"));
    }

    void clerkSessionSeesAdminRefusalInWords()
    {
        // A terminal with a pos key where a clerk is signed in: the server refuses an admin action
        // (403 admin_role_required) and the page says so in plain words; nothing is created.
        TerminalFixture shop({}, Scope::Pos);
        shop.signInAs(QStringLiteral("Ravi"), QStringLiteral("1357"), UserRole::Clerk);
        UsersPage page(shop.context);
        showPage(page);
        auto *name = child<QLineEdit>(page, "userName");
        name->setFocus();
        QTest::keyClicks(name, QStringLiteral("Mallory"));
        QTest::keyClick(name, Qt::Key_Return);
        QTest::keyClick(child<QComboBox>(page, "userRole"), Qt::Key_Tab);
        QTest::keyClicks(child<QLineEdit>(page, "userPin"), QStringLiteral("1234"));
        QTest::keyClick(child<QLineEdit>(page, "userPin"), Qt::Key_Return);
        QTest::keyClicks(child<QLineEdit>(page, "userPinAgain"), QStringLiteral("1234"));
        QTest::keyClick(child<QLineEdit>(page, "userPinAgain"), Qt::Key_Return);
        const auto refusal = [&page]() -> QString {
            for (QLabel *label : page.findChildren<QLabel *>()) {
                if (label->isVisible() && label->text().contains(QStringLiteral("Ravi is signed in as a clerk")))
                    return label->text();
            }
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!refusal().isEmpty(), kTimeoutMs);
        QVERIFY2(refusal().contains(QStringLiteral("needs an admin")), qPrintable(refusal()));
        shot(page, "users_clerk_403");
        QCOMPARE(shop.sql(QStringLiteral("SELECT COUNT(*) FROM users WHERE name = 'Mallory'")), 0);
    }

    // Settings → Backups (issue 15): the server's last nightly backup, the next run and the folder; a warning once
    // no backup is newer than 2 days (the server's clock moved on), and right away when there is none at all.
    void backupCardShowsLastBackupAndWarnsWhenOld()
    {
        QTemporaryDir folder;
        QFile archive(folder.filePath(QStringLiteral("rechargedesk-20261124-023000.tar.gz")));
        QVERIFY(archive.open(QIODevice::WriteOnly));
        archive.write(QByteArray(2048, 'x'));
        archive.close();
        ManualClock clock(QDateTime(QDate(2026, 11, 24), QTime(10, 0), QTimeZone(IstTime::kOffsetSeconds)));
        ServerOptions options = TestServer::defaultOptions();
        options.backup.at = QTime(2, 30);
        options.backup.dir = folder.path();
        TestServer server(options, &clock);
        const CreatedKey key = server.createKeyPair(Mode::Test, Scope::Admin);
        ApiClient api(server.baseUrl(), key.keyId, key.secret);
        QTemporaryDir prefs;
        TerminalContext context(api, prefs.filePath(QStringLiteral("prefs.ini")));
        BackupCard card(context);
        card.resize(460, 260);
        showPage(card);
        auto *last = child<QLabel>(card, "backupLast");
        QTRY_VERIFY_WITH_TIMEOUT(last->text().contains(QStringLiteral("2026-11-24 02:30:00")), kTimeoutMs);
        QVERIFY2(last->text().contains(QStringLiteral("rechargedesk-20261124-023000.tar.gz")),
                 qPrintable(last->text()));
        QVERIFY(child<QLabel>(card, "backupSchedule")->text().contains(QStringLiteral("2026-11-25 02:30:00")));
        QVERIFY(!child<QLabel>(card, "backupWarning")->isVisible());
        shot(card, "backup_fresh");

        clock.advanceMs(3LL * 24 * 3600 * 1000);
        card.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(card, "backupWarning")->isVisible(), kTimeoutMs);
        QVERIFY(child<QLabel>(card, "backupWarning")->text().contains(QStringLiteral("2 days")));
        shot(card, "backup_stale");

        // The card is part of Settings.
        SettingsPage page(context);
        showPage(page);
        QVERIFY(page.findChild<BackupCard *>());
        QTRY_VERIFY_WITH_TIMEOUT(
            page.findChild<BackupCard *>()->findChild<QLabel *>(QStringLiteral("backupWarning"))->isVisible(),
            kTimeoutMs);
        auto *scroll = page.findChild<QScrollArea *>();
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        shot(page, "settings_backup");
    }

    void settingsChangeShopAndTerminal()
    {
        Shop shop;
        SettingsPage page(shop.context);
        int shopChanged = 0;
        connect(&shop.context, &TerminalContext::shopChanged, this, [&shopChanged] { ++shopChanged; });
        showPage(page);
        auto *name = child<QLineEdit>(page, "shopName");
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLineEdit>(page, "shopThreshold")->text().isEmpty(), kTimeoutMs);
        shot(page, "settings");

        QCOMPARE(child<QComboBox>(page, "language")->count(), 2); // English, हिन्दी (tst_ui_language saves it)

        // An empty name is refused before asking the server.
        name->clear();
        name->setFocus();
        QTest::keyClick(name, Qt::Key_Return);
        QVERIFY(page.findChildren<QLabel *>(QStringLiteral("fieldError")).constFirst()->isVisible());

        // An address that is too long: the server's words at the address.
        QTest::keyClicks(name, QStringLiteral("Sharma Mobile Point"));
        auto *address = child<QPlainTextEdit>(page, "shopAddress");
        address->setPlainText(QString(301, QLatin1Char('x')));
        QTest::keyClick(name, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(page.findChildren<QLabel *>(QStringLiteral("fieldError")).at(1)->isVisible(),
                                 kTimeoutMs);
        QVERIFY(
            page.findChildren<QLabel *>(QStringLiteral("fieldError")).at(1)->text().contains(QStringLiteral("300")));
        QCOMPARE(shopChanged, 0);

        address->setPlainText(QStringLiteral("12 Station Road, Jaipur"));
        QTest::keyClicks(child<QComboBox>(page, "shopCircle"), QStringLiteral("Rajasthan"));
        QTest::keyClick(name, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(shop.context.shopName(), QStringLiteral("Sharma Mobile Point"), kTimeoutMs);
        QCOMPARE(shop.context.shopAddress(), QStringLiteral("12 Station Road, Jaipur"));
        QCOMPARE(shopChanged, 1);
        const QJsonObject saved =
            shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/shop")), shop.auth()).data();
        QCOMPARE(saved.value(QStringLiteral("name")).toString(), QStringLiteral("Sharma Mobile Point"));
        QCOMPARE(saved.value(QStringLiteral("circle_code")).toString(), QStringLiteral("RJ"));
        QCOMPARE(shop.context.shopCircle(), QStringLiteral("RJ")); // the Plans screen opens on it
        QCOMPARE(saved.value(QStringLiteral("address")).toString(), QStringLiteral("12 Station Road, Jaipur"));
        QVERIFY(child<QLabel>(page, "shopNotice")->isVisible());
        shot(page, "settings_saved");

        // Sale terms: Airtel's discount to 2.75 %, the sandbox delay to 3 s, typed into the fields.
        SaleTermsCard *terms = page.saleTerms();
        QDoubleSpinBox *airtel = terms->rateField(QStringLiteral("AT"));
        QVERIFY(airtel);
        QCOMPARE(airtel->value(), 2.0);
        QCOMPARE(child<QLabel>(page, "defaultRate_VI")->text(), QStringLiteral("3.5 %"));
        airtel->setFocus();
        airtel->selectAll();
        QTest::keyClicks(airtel, QStringLiteral("2.75"));
        auto *delay = child<QDoubleSpinBox>(page, "settleDelay");
        QTRY_COMPARE_WITH_TIMEOUT(delay->value(), 0.1, kTimeoutMs); // the server's 50 ms, shown to 0.1 s
        delay->setFocus();
        delay->selectAll();
        QTest::keyClicks(delay, QStringLiteral("3"));
        QTest::mouseClick(child<QPushButton>(page, "saveTerms"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "termsNotice")->isVisible(), kTimeoutMs);
        QVERIFY(child<QLabel>(page, "termsNotice")->text().contains(QStringLiteral("for AT apply")));
        const QJsonObject withTerms =
            shop.server.http().get(shop.server.url(QStringLiteral("/api/v1/shop")), shop.auth()).data();
        QCOMPARE(withTerms.value(QStringLiteral("sandbox_settle_delay_ms")).toInteger(), 3000);
        QCOMPARE(withTerms.value(QStringLiteral("discount_rates"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("basis_points")),
                 QJsonValue(275));
        // This terminal's confirmation screen now computes with the new rate.
        QCOMPARE(shop.context.catalog().findOperator(QStringLiteral("AT"))->discountBasisPoints, 275);
        shot(page, "settings_terms");

        // Back to the defaults: fills the catalogue rates, saved on Save.
        QTest::mouseClick(child<QPushButton>(page, "resetRates"), Qt::LeftButton);
        QCOMPARE(airtel->value(), 2.0);
        QTest::mouseClick(child<QPushButton>(page, "saveTerms"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shop.context.catalog().findOperator(QStringLiteral("AT"))->discountBasisPoints, 200,
                                  kTimeoutMs);

        // Terminal-local settings go to terminal.ini next to the preferences.
        QCOMPARE(page.terminalIniPath(), shop.dir.filePath(QStringLiteral("terminal.ini")));
        {
            QSettings ini(page.terminalIniPath(), QSettings::IniFormat);
            ini.setValue(QStringLiteral("server/key_id"), shop.key.keyId); // must survive
        }
        page.refresh();
        auto *listen = child<QLineEdit>(page, "listenAddress");
        auto *database = child<QLineEdit>(page, "databasePath");
        listen->setFocus();
        QTest::keyClicks(listen, QStringLiteral("0.0.0.0:80800"));
        QTest::keyClick(listen, Qt::Key_Return);
        QVERIFY(child<QLabel>(page, "terminalNotice")->isHidden());
        QVERIFY(!QSettings(page.terminalIniPath(), QSettings::IniFormat).contains(QStringLiteral("server/listen")));
        listen->clear();
        QTest::keyClicks(listen, QStringLiteral("0.0.0.0:8080"));
        QTest::keyClicks(database, QStringLiteral("postgres://desk@db.local/rechargedesk"));
        QTest::keyClick(database, Qt::Key_Return);
        QVERIFY(child<QLabel>(page, "terminalNotice")->isVisible());
        QSettings ini(page.terminalIniPath(), QSettings::IniFormat);
        QCOMPARE(ini.value(QStringLiteral("server/listen")).toString(), QStringLiteral("0.0.0.0:8080"));
        QCOMPARE(ini.value(QStringLiteral("server/database")).toString(),
                 QStringLiteral("postgres://desk@db.local/rechargedesk"));
        QCOMPARE(ini.value(QStringLiteral("server/key_id")).toString(), shop.key.keyId);
    }

    void settingsTabOrderFollowsTheColumns()
    {
        // Tab reads the page as the eye does: the bar of the sections (General, Upstreams), then the left column
        // (the shop, this terminal), then the right one (sale terms, backups). The Settings form keeps this order;
        // the cards made in C++ come after it.
        Shop shop;
        SettingsPage page(shop.context);
        QStringList order = tabOrder(page);
        order.removeIf([](const QString &name) {
            // Inside spin boxes, and the section bar's scroll buttons (hidden: two sections never scroll).
            return name.startsWith(QLatin1String("qt_")) || name.startsWith(QLatin1String("Scroll"));
        });
        const QStringList left{
            QStringLiteral("settingsSections"), QStringLiteral("shopName"), QStringLiteral("shopAddress"),
            QStringLiteral("shopThreshold"), QStringLiteral("idleLock"), QStringLiteral("shopCircle"),
            // Issue 28: shifts, blind count, the UPI ID and payee name.
            QStringLiteral("shiftsEnabledBox"), QStringLiteral("blindCountBox"), QStringLiteral("upiVpa"),
            QStringLiteral("upiPayeeName"),
            // Issue 29: the complaint deadline.
            QStringLiteral("complaintDeadline"), QStringLiteral("saveShop"), QStringLiteral("listenAddress"),
            QStringLiteral("databasePath"), QStringLiteral("browseDatabase"), QStringLiteral("language"),
            QStringLiteral("saveTerminal"),
            // Issue 28: this terminal's counter.
            QStringLiteral("terminalName"), QStringLiteral("cashDrawer"), QStringLiteral("customerDisplay"),
            QStringLiteral("printUpiQrBox"), QStringLiteral("saveCounter")};
        QCOMPARE(order.mid(0, left.size()), left);
        QCOMPARE(order.value(left.size()), QStringLiteral("discountRate_AT")); // the first operator of the terms
        const qsizetype delay = order.indexOf(QStringLiteral("settleDelay"));
        QCOMPARE(order.mid(delay, 3), QStringList({QStringLiteral("settleDelay"), QStringLiteral("saveTerms"),
                                                   QStringLiteral("resetRates")}));
        // The section Upstreams: its list, then Add, Edit, Check, Remove, then its statements.
        const qsizetype list = order.indexOf(QStringLiteral("upstreamsTable"));
        QVERIFY(list > delay);
        QCOMPARE(order.mid(list, 8),
                 QStringList({QStringLiteral("upstreamsTable"), QStringLiteral("addUpstreamButton"),
                              QStringLiteral("editUpstreamButton"), QStringLiteral("checkUpstreamButton"),
                              QStringLiteral("removeUpstreamButton"), QStringLiteral("statementUpstream"),
                              QStringLiteral("importStatementButton"), QStringLiteral("statementRunsTable")}));
    }

    void settingsFormsKeepTheirLooks()
    {
        // The looks of style.qss reach the widgets of the Settings forms: the hints are grey, Save is blue, a field
        // error red. (A label named or given its look after the scroll area polished it keeps the plain look.)
        Shop shop;
        SettingsPage page(shop.context);
        showPage(page);
        const QColor grey(0x66, 0x70, 0x85);
        for (const char *hint : {"shopHint", "terminalIniHint", "termsHint", "backupHint"})
            QCOMPARE(child<QLabel>(page, hint)->palette().color(QPalette::WindowText), grey);
        for (const char *primary : {"saveShop", "saveTerms"})
            QCOMPARE(child<QPushButton>(page, primary)->palette().color(QPalette::Button), QColor(0x15, 0x70, 0xef));
        page.showSection(SettingsPage::Section::Upstreams); // the section Upstreams, polished as it shows
        for (const char *hint : {"upstreamHint", "statementsHint"})
            QCOMPARE(child<QLabel>(page, hint)->palette().color(QPalette::WindowText), grey);
        page.showSection(SettingsPage::Section::General);
        auto *name = child<QLineEdit>(page, "shopName");
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLineEdit>(page, "shopThreshold")->text().isEmpty(), kTimeoutMs);
        name->clear();
        QTest::keyClick(name, Qt::Key_Return);
        QLabel *nameError = page.findChildren<QLabel *>(QStringLiteral("fieldError")).constFirst();
        QVERIFY(nameError->isVisible());
        QCOMPARE(nameError->palette().color(QPalette::WindowText), QColor(0xb4, 0x23, 0x18));
    }

    void webhookLogTabOrder()
    {
        // The filters left to right, Refresh, the log, then Redeliver under it.
        Shop shop;
        WebhookDeliveriesPane pane(shop.context);
        QCOMPARE(tabOrder(pane),
                 QStringList({QStringLiteral("deliveryStatus"), QStringLiteral("deliveryResult"),
                              QStringLiteral("deliveryTransaction"), QStringLiteral("refreshDeliveries"),
                              QStringLiteral("deliveriesTable"), QStringLiteral("redeliver")}));
    }

    void webhooksTestDeliveryShowsInLogAndInbox()
    {
        Shop shop;
        WebhooksPage page(shop.context);
        QAbstractItemModelTester deliveriesTester(page.deliveriesModel(),
                                                  QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester inboxTester(page.inboxModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        showPage(page);
        auto *state = child<QLabel>(page, "endpointState");
        QTRY_VERIFY_WITH_TIMEOUT(state->text().contains(QStringLiteral("built-in inbox")), kTimeoutMs);

        // A bad URL: the server's words at the URL field.
        auto *url = child<QLineEdit>(page, "webhookUrl");
        auto *password = child<QLineEdit>(page, "webhookPassword");
        url->setFocus();
        QTest::keyClicks(url, QStringLiteral("ftp://example.com/hook"));
        QTest::keyClick(url, Qt::Key_Return);
        QTest::keyClicks(password, QStringLiteral("s3cret-pass"));
        QTest::keyClick(password, Qt::Key_Return);
        QLabel *urlError = page.findChildren<QLabel *>(QStringLiteral("fieldError")).constFirst();
        QTRY_VERIFY_WITH_TIMEOUT(urlError->isVisible(), kTimeoutMs);
        QVERIFY(urlError->text().contains(QStringLiteral("http")));
        shot(page, "webhooks_error");

        // Point it at this server's inbox by URL; a fresh secret is shown once.
        QTest::mouseClick(child<QPushButton>(page, "useInbox"), Qt::LeftButton);
        QVERIFY(url->text().endsWith(QStringLiteral("/hooks/inbox")));
        QVERIFY(password->hasFocus());
        QTest::keyClick(password, Qt::Key_Return);
        SecretDialog *dialog = waitForSecretDialog(page);
        QVERIFY(dialog);
        QVERIFY(dialog->secret().startsWith(QStringLiteral("whsec_")));
        QTest::mouseClick(child<QPushButton>(*dialog, "secretDone"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(state->text().contains(url->text()), kTimeoutMs);
        const QJsonObject endpoint =
            shop.server.http()
                .get(shop.server.url(QStringLiteral("/api/v1/webhook-endpoint")), shop.server.admin())
                .data();
        QCOMPARE(endpoint.value(QStringLiteral("url")).toString(), url->text());
        QCOMPARE(endpoint.value(QStringLiteral("webhook_password")).toString(), QStringLiteral("s3cret-pass"));

        // Test delivery: it shows up in the delivery log as accepted, and in the inbox.
        QTest::mouseClick(child<QPushButton>(page, "testDelivery"), Qt::LeftButton);
        auto *deliveries = child<QTableView>(page, "deliveriesTable");
        QTRY_VERIFY_WITH_TIMEOUT(deliveries->model()->rowCount() >= 1 &&
                                     cell(deliveries, 0, 4).startsWith(QStringLiteral("OK 2")),
                                 kTimeoutMs);
        QCOMPARE(cell(deliveries, 0, 6), QStringLiteral("Delivered"));
        const QString webhookId = page.deliveriesModel()->item(0).value(QStringLiteral("webhook_id")).toString();
        QVERIFY(!webhookId.isEmpty());
        auto *inbox = child<QTableView>(page, "inboxTable");
        QTRY_VERIFY_WITH_TIMEOUT(findRow(inbox, 4, webhookId) >= 0, kTimeoutMs);
        shot(page, "webhooks_delivered");

        // Filters go to the server.
        auto *result = child<QComboBox>(page, "deliveryResult");
        result->setCurrentIndex(result->findData(QStringLiteral("false")));
        QTRY_VERIFY_WITH_TIMEOUT(!page.deliveriesModel()->isLoading() && deliveries->model()->rowCount() == 0,
                                 kTimeoutMs);
        result->setCurrentIndex(0);
        QTRY_VERIFY_WITH_TIMEOUT(!page.deliveriesModel()->isLoading() && deliveries->model()->rowCount() >= 1,
                                 kTimeoutMs);

        // Redeliver: a second attempt with the same webhook-id; the inbox counts it.
        deliveries->setCurrentIndex(deliveries->model()->index(0, 0));
        auto *redeliver = child<QPushButton>(page, "redeliver");
        QVERIFY(redeliver->isEnabled());
        QTest::mouseClick(redeliver, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "logNotice")->isVisible(), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(findRow(inbox, 4, webhookId) >= 0 &&
                                     cell(inbox, findRow(inbox, 4, webhookId), 3) == QStringLiteral("2×"),
                                 kTimeoutMs);
        inbox->setCurrentIndex(inbox->model()->index(findRow(inbox, 4, webhookId), 0));
        QVERIFY(child<QPlainTextEdit>(page, "inboxBody")->toPlainText().contains(QStringLiteral("s3cret-pass")));
    }

    void figuresFollowTheSalesAndF5()
    {
        Shop shop;
        shop.context.setUser(SignedInUser{1, QStringLiteral("Asha"), true, QString()});
        TerminalView view(shop.context, false);
        view.resize(1366, 720);
        view.show();
        QApplication::setActiveWindow(&view);
        QVERIFY(QTest::qWaitForWindowActive(&view));
        auto *backOffice = qobject_cast<BackOfficeView *>(view.screen(QStringLiteral("backoffice")));
        QVERIFY(backOffice);
        auto *totals = child<QLabel>(*backOffice->historyPage(), "totalsLine");
        auto *successes = child<QLabel>(*backOffice->dayEndPage(), "successCount");
        auto *balance = child<QLabel>(*backOffice->walletPage(), "walletBalance");
        const auto serverBalance = [&shop] {
            return shop.server.http()
                .get(shop.server.url(QStringLiteral("/api/v1/wallet")), shop.server.admin())
                .data()
                .value(QStringLiteral("balance_paise"))
                .toInteger();
        };

        // Every figure seen once before the day's sales.
        QVERIFY(view.showScreen(QStringLiteral("backoffice")));
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), qint64(0), kTimeoutMs);
        backOffice->setCurrentWidget(backOffice->dayEndPage());
        QTRY_COMPARE_WITH_TIMEOUT(successes->text(), QStringLiteral("0"), kTimeoutMs);
        backOffice->setCurrentWidget(backOffice->walletPage());
        QTRY_COMPARE_WITH_TIMEOUT(balanceOf(balance), serverBalance(), kTimeoutMs);
        backOffice->setCurrentWidget(backOffice->historyPage());

        // Three sales at the counter; back in the back office every figure has them, no filter touched.
        for (const QString &number :
             {QStringLiteral("9876543210"), QStringLiteral("9876543211"), QStringLiteral("9876543212")})
            QVERIFY(sellOnTheCounter(view, number, QStringLiteral("100")));
        QVERIFY(view.showScreen(QStringLiteral("backoffice")));
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), qint64(3), kTimeoutMs);
        QVERIFY(totals->text().contains(QLatin1String("3 successful")));
        backOffice->setCurrentWidget(backOffice->dayEndPage());
        QTRY_COMPARE_WITH_TIMEOUT(successes->text(), QStringLiteral("3"), kTimeoutMs);
        backOffice->setCurrentWidget(backOffice->walletPage());
        QTRY_COMPARE_WITH_TIMEOUT(balanceOf(balance), serverBalance(), kTimeoutMs);
        QCOMPARE(balanceOf(balance), Paise(10'000'00 - 3 * 98'00)); // Airtel 2 %: ₹98.00 a sale

        // A sale the terminal did not see (another counter, the API): F5 on the page brings it in,
        // and F5 stays on the back office instead of opening the fifth screen.
        const auto sellElsewhere = [&shop](const QString &number) {
            return shop.server.http()
                .postJson(shop.server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                          QJsonObject{{QStringLiteral("phone_number"), number},
                                      {QStringLiteral("operator_code"), QStringLiteral("AT")},
                                      {QStringLiteral("amount"), QStringLiteral("100")}},
                          shop.server.admin())
                .status;
        };
        QCOMPARE(sellElsewhere(QStringLiteral("9876543213")), 200);
        backOffice->setCurrentWidget(backOffice->historyPage());
        auto *search = child<QLineEdit>(*backOffice->historyPage(), "searchFilter");
        search->setFocus();
        QCOMPARE(totals->property("count").toLongLong(), qint64(3));
        QTest::keyClick(search, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), qint64(4), kTimeoutMs);
        QVERIFY(backOffice->isVisible());
        QVERIFY(search->text().isEmpty());
        shot(view, "fresh_history");

        // Ctrl+R on the day-end page.
        backOffice->setCurrentWidget(backOffice->dayEndPage());
        QCOMPARE(successes->text(), QStringLiteral("3"));
        auto *date = child<QWidget>(*backOffice->dayEndPage(), "reportDate");
        date->setFocus();
        QTest::keyClick(date, Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(successes->text(), QStringLiteral("4"), kTimeoutMs);

        // The Refresh buttons of the day-end and wallet pages.
        QCOMPARE(sellElsewhere(QStringLiteral("9876543214")), 200);
        QTest::mouseClick(child<QPushButton>(*backOffice->dayEndPage(), "refreshButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(successes->text(), QStringLiteral("5"), kTimeoutMs);
        backOffice->setCurrentWidget(backOffice->walletPage());
        QTRY_COMPARE_WITH_TIMEOUT(balanceOf(balance), serverBalance(), kTimeoutMs);
        QCOMPARE(sellElsewhere(QStringLiteral("9876543215")), 200);
        QTest::mouseClick(child<QPushButton>(*backOffice->walletPage(), "refreshWallet"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(balanceOf(balance), Paise(10'000'00 - 6 * 98'00), kTimeoutMs);

        // Outside the back office F5 still opens the fifth screen.
        QVERIFY(view.showScreen(QStringLiteral("mobile")));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F5);
        QVERIFY(view.screen(QStringLiteral("voucher"))->isVisible());
    }

    void ctrlTabSwitchesTabsFromAnyWidget()
    {
        // Issue 27: Ctrl+Tab and Ctrl+Shift+Tab switch the tabs from a drop-down and a table as from a line edit.
        Shop shop;
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *view = new BackOfficeView(shop.context, &window);
        layout->addWidget(view);
        showPage(window);
        HistoryPage *history = view->historyPage();
        for (const char *name : {"statusFilter", "historyTable", "searchFilter"}) {
            view->setCurrentWidget(history);
            auto *widget = child<QWidget>(*history, name);
            widget->setFocus();
            QTRY_VERIFY(widget->hasFocus());
            QTest::keyClick(widget, Qt::Key_Tab, Qt::ControlModifier);
            QVERIFY2(view->currentWidget() == view->dayEndPage(), name);
            QVERIFY(view->dayEndPage()->isAncestorOf(QApplication::focusWidget()));
            // Back: Shift+Tab as a keyboard sends it (Backtab), and as Tab with Shift.
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
            QVERIFY2(view->currentWidget() == history, name);
            widget->setFocus();
            QTest::keyClick(widget, Qt::Key_Tab, Qt::ControlModifier | Qt::ShiftModifier);
            QVERIFY2(view->currentWidget() == view->settingsPage(), name); // round the start to the last tab
        }
        // From Settings' language drop-down, round the end to History.
        auto *language = child<QComboBox>(*view->settingsPage(), "language");
        language->setFocus();
        QTRY_VERIFY(language->hasFocus());
        QTest::keyClick(language, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(view->currentWidget(), history);
    }

    void enterPressesTheFocusedButton()
    {
        // Issue 27: on a back-office page Enter and Return press the focused button, as Space does.
        Shop shop;
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *view = new BackOfficeView(shop.context, &window);
        layout->addWidget(view);
        showPage(window);
        SettingsPage *page = view->settingsPage();
        view->setCurrentWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLineEdit>(*page, "shopThreshold")->text().isEmpty(), kTimeoutMs);
        auto *listen = child<QLineEdit>(*page, "listenAddress");
        auto *save = child<QPushButton>(*page, "saveTerminal");
        const auto savedListen = [page] {
            return QSettings(page->terminalIniPath(), QSettings::IniFormat).value(QStringLiteral("server/listen"));
        };
        int port = 8081;
        for (const Qt::Key key : {Qt::Key_Return, Qt::Key_Enter}) {
            const QString address = QStringLiteral("0.0.0.0:%1").arg(port++);
            listen->clear();
            QTest::keyClicks(listen, address);
            save->setFocus();
            QTRY_VERIFY(save->hasFocus());
            QTest::keyClick(save, key, key == Qt::Key_Enter ? Qt::KeypadModifier : Qt::NoModifier);
            QTRY_COMPARE_WITH_TIMEOUT(savedListen().toString(), address, kTimeoutMs);
            QVERIFY(child<QLabel>(*page, "terminalNotice")->isVisible());
        }
        // Day-end's Refresh as well.
        view->setCurrentWidget(view->dayEndPage());
        auto *refresh = child<QPushButton>(*view->dayEndPage(), "refreshButton");
        int refreshed = 0;
        connect(refresh, &QPushButton::clicked, this, [&refreshed] { ++refreshed; });
        refresh->setFocus();
        QTRY_VERIFY(refresh->hasFocus());
        QTest::keyClick(refresh, Qt::Key_Return);
        QCOMPARE(refreshed, 1);
    }

    void backOfficeHasAllTabs()
    {
        Shop shop;
        // Inside a window with the kiosk look of style.qss, as MainWindow sets it before creating screens.
        QWidget window;
        window.setProperty("kiosk", true);
        auto *layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *view = new BackOfficeView(shop.context, &window);
        layout->addWidget(view);
        QCOMPARE(view->count(), 10);
        const QStringList titles{QStringLiteral("History"),    QStringLiteral("Day-end"),  QStringLiteral("Shifts"),
                                 QStringLiteral("Complaints"), QStringLiteral("Shops"),    QStringLiteral("Wallet"),
                                 QStringLiteral("API keys"),   QStringLiteral("Webhooks"), QStringLiteral("Users"),
                                 QStringLiteral("Settings")};
        for (int i = 0; i < titles.size(); ++i)
            QCOMPARE(view->tabText(i), titles.at(i));
        QCOMPARE(view->widget(2), view->shiftsPage());     // issue 28
        QCOMPARE(view->widget(3), view->complaintsPage()); // issue 29
        QCOMPARE(view->widget(4), view->shopsPage());      // issue 30
        QCOMPARE(view->widget(5), view->walletPage());
        showPage(window);
        // With kiosk fonts each of these pages still fits the page area of a 1366×768 kiosk (navigation,
        // banner, status bar and tab bar taken off) instead of being cut.
        for (QWidget *page : std::initializer_list<QWidget *>{
                 view->walletPage(), view->keysPage(), view->webhooksPage(), view->usersPage(), view->settingsPage(),
                 view->shiftsPage(), view->complaintsPage(), view->historyPage(), view->dayEndPage(),
                 view->shopsPage()}) {
            const QSize minimum = page->minimumSizeHint();
            QVERIFY2(minimum.width() <= 1100 && minimum.height() <= 670,
                     qPrintable(QStringLiteral("%1 needs %2×%3")
                                    .arg(view->tabText(view->indexOf(page)))
                                    .arg(minimum.width())
                                    .arg(minimum.height())));
        }
        view->setCurrentWidget(view->walletPage());
        auto *balance = child<QLabel>(*view->walletPage(), "walletBalance");
        QTRY_VERIFY_WITH_TIMEOUT(balanceOf(balance) >= 0, kTimeoutMs);
        shot(window, "kiosk_wallet");
        view->setCurrentWidget(view->keysPage());
        QTRY_VERIFY_WITH_TIMEOUT(view->keysPage()->model()->isComplete(), kTimeoutMs);
        shot(window, "kiosk_keys");
        view->setCurrentWidget(view->usersPage());
        QTRY_VERIFY_WITH_TIMEOUT(view->usersPage()->usersModel()->isComplete(), kTimeoutMs);
        shot(window, "kiosk_users");
        view->setCurrentWidget(view->settingsPage());
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLineEdit>(*view->settingsPage(), "shopThreshold")->text().isEmpty(),
                                 kTimeoutMs);
        shot(window, "kiosk_settings");
        view->setCurrentWidget(view->webhooksPage());
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLabel>(*view->webhooksPage(), "endpointState")->text().isEmpty(), kTimeoutMs);
        shot(window, "kiosk_webhooks");
    }
};

QTEST_MAIN(TestUiBackOffice)
#include "tst_ui_backoffice.moc"
