// Issue 30 at the shop's terminal: Back office → Wallet → Distributor (the distributor's figure for this shop beside
// ours, the difference in words and what explains it), "Request top-up…" (amount, how it was paid, the UTR, a slip
// photo with a preview; a photo over 1 MiB or not PNG/JPEG refused in words before anything is sent), the list of the
// shop's requests with their states, and the status bar's warning when the distributor's figure is below the shop's
// low-balance threshold (asked at most once a minute). The screens' shapes are checked against a canned server that
// answers the JSON of openapi.yaml; the whole chain — typed into the terminal window, approved at a real distributor
// server over HTTP, credited once at the shop — against two real servers in this process.
#include "apiclient.h"
#include "backoffice/backofficeview.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/typedcolumn.h"
#include "backoffice/walletpage.h"
#include "cannedapiserver.h"
#include "entities/collection.h"
#include "entities/shopinfo.h"
#include "entities/upstreamfundrequest.h"
#include "entities/upstreaminfo.h"
#include "entities/upstreamwallet.h"
#include "entities/walletbalance.h"
#include "funds/distributorbalancewatch.h"
#include "funds/distributorpanel.h"
#include "funds/fundrequestdialog.h"
#include "keyboard.h"
#include "mainwindow.h"
#include "services/walletservice.h"
#include "statuspanel.h"
#include "store/accountrepository.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "widgets/elidedlabel.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPainter>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 15'000;
const QString kUpstream = QStringLiteral("distributor");

/// 2026-11-28 14:05 IST.
QDateTime at1405()
{
    return QDateTime(QDate(2026, 11, 28), QTime(8, 35), Qt::UTC);
}

/// The shop's distributor as GET /api/v1/upstreams lists it: a RechargeDesk upstream offering the balance and fund
/// requests (or, `spec`, an aggregator promising nothing more than the spec).
UpstreamInfo distributorInfo(bool spec = false)
{
    UpstreamInfo info;
    info.name = kUpstream;
    info.configured = true;
    info.baseUrl = QStringLiteral("https://distributor.example.in/api/v1");
    info.keyId = QStringLiteral("live_kirana42");
    info.kind = spec ? QStringLiteral("spec") : QStringLiteral("rechargedesk");
    info.credential = QStringLiteral("key_pair");
    info.offers.idempotentReferenceId = info.offers.statusCheck = info.offers.balance = info.offers.fundRequests =
        !spec;
    info.state = QStringLiteral("online");
    info.webhookPath = QStringLiteral("/hooks/upstream/distributor");
    return info;
}

UpstreamWallet::Explanation explanation(const QString &kind, qint64 count, Paise amount, const QList<qint64> &ids)
{
    UpstreamWallet::Explanation e;
    e.kind = kind;
    e.count = count;
    e.amount = amount;
    e.transactionIds = ids;
    return e;
}

/// The distributor's figure `theirs` for us beside our `ours`, with `explained` parts of the difference.
UpstreamWallet walletOf(Paise theirs, Paise ours, const QList<UpstreamWallet::Explanation> &explained = {})
{
    UpstreamWallet wallet;
    wallet.upstream = kUpstream;
    wallet.balance = theirs;
    wallet.localBalance = ours;
    wallet.difference = ours - theirs;
    wallet.explained = explained;
    Paise sum = 0;
    for (const UpstreamWallet::Explanation &e : explained)
        sum += e.amount;
    wallet.unexplained = *wallet.difference - sum;
    wallet.checkedAt = at1405();
    return wallet;
}

UpstreamFundRequest requestOf(qint64 id, const QString &state, Paise amount, const QString &method, const QString &utr,
                              const QString &reason = {})
{
    UpstreamFundRequest r;
    r.id = id;
    r.upstream = kUpstream;
    r.remoteId = state == QLatin1String("sending") || state == QLatin1String("refused") ? 0 : 100 + id;
    r.amount = amount;
    r.method = method;
    r.utr = utr;
    r.state = state;
    r.reason = reason;
    r.createdAt = at1405().addSecs(-3600 * (10 - id));
    if (state == QLatin1String("approved"))
        r.creditedAt = r.createdAt.addSecs(1800);
    return r;
}

/// A shop server as Wallet → Distributor and the status bar see it: its upstreams, the distributor's wallet answer,
/// the fund requests (a POST is stored as pending and listed first), the shop's threshold and wallet. Everything is
/// recorded; anything else answers 200 with {}.
class FakeShop final : public CannedApiServer
{
public:
    QList<UpstreamInfo> upstreams{distributorInfo()};
    UpstreamWallet wallet = walletOf(1'250'000, 1'250'000);
    QList<UpstreamFundRequest> fundRequests; ///< newest first
    Paise threshold = 500'000;
    Paise balance = 1'250'000;
    QString refusedUtr = QStringLiteral("412300001111"); ///< a POST with this UTR is refused by the distributor
    bool clerk = false; ///< GET /api/v1/upstreams is refused (403), as to a clerk's session

    int walletQuestions() const
    {
        return int(requests(QStringLiteral("GET"), QStringLiteral("/api/v1/upstreams/distributor/wallet")).size());
    }

private:
    void handle(const Request &seen, QHttpServerResponder &responder) override
    {
        const QString requestsPath = QStringLiteral("/api/v1/upstreams/distributor/fund-requests");
        if (seen.path == QLatin1String("/api/v1/upstreams") && clerk)
            return fail(responder, {QHttpServerResponder::StatusCode::Forbidden,
                                    QStringLiteral("AUTHORIZATION_ERROR"),
                                    QStringLiteral("admin_role_required"),
                                    {},
                                    QStringLiteral("admins only")});
        if (seen.path == QLatin1String("/api/v1/upstreams")) {
            QJsonArray items;
            for (const UpstreamInfo &info : std::as_const(upstreams))
                items.append(info.toJson());
            return answer(responder, {{QStringLiteral("items"), items}});
        }
        if (seen.path == QLatin1String("/api/v1/upstream"))
            return answer(responder, upstreams.value(0).toJson());
        if (seen.path == QStringLiteral("/api/v1/upstreams/%1/wallet").arg(upstreams.value(0).name))
            return answer(responder, wallet.toJson());
        if (seen.path == requestsPath && seen.method == QLatin1String("POST")) {
            UpstreamFundRequest r = requestOf(fundRequests.size() + 1, QStringLiteral("pending"),
                                              seen.body.value(QStringLiteral("amount")).toInteger() * 100,
                                              seen.body.value(QStringLiteral("method")).toString(),
                                              seen.body.value(QStringLiteral("utr")).toString().toUpper());
            r.note = seen.body.value(QStringLiteral("note")).toString();
            if (r.utr == refusedUtr) { // the distributor answered 4xx: stored as refused, with its words
                r.state = QStringLiteral("refused");
                r.remoteId = 0;
                r.reason = QStringLiteral("utr: this UTR was already used by an earlier request");
            }
            fundRequests.prepend(r);
            return answer(responder, r.toJson());
        }
        if (seen.path == requestsPath) {
            Collection<UpstreamFundRequest> list;
            list.items = fundRequests;
            return answer(responder, list.toJson());
        }
        if (seen.path == QLatin1String("/api/v1/shop")) {
            ShopInfo shop;
            shop.name = QStringLiteral("Sharma Mobile Point");
            shop.lowBalanceThreshold = threshold;
            return answer(responder, shop.toJson());
        }
        if (seen.path == QLatin1String("/api/v1/wallet"))
            return answer(responder, WalletBalance{QStringLiteral("live"), balance}.toJson());
        if (seen.path == QLatin1String("/api/v1/wallet/ledger")) {
            Collection<UpstreamFundRequest> none; // an empty page of any entity
            none.paged = true;
            return answer(responder, none.toJson());
        }
        answer(responder, {});
    }
};

/// The Wallet page of a live admin key against a FakeShop, shown at 1366×768.
struct CannedWallet
{
    CannedWallet()
        : api(server.baseUrl(), QStringLiteral("live_canned01"), QStringLiteral("secret")),
          context(api, dir.filePath(QStringLiteral("prefs.ini")))
    {}

    FakeShop server;
    QTemporaryDir dir;
    ApiClient api;
    TerminalContext context;
};

/// Waits until `parent` has a visible child `name` of type T and, when it is a window, makes it the active one.
template <class T> T *waitFor(QWidget &parent, const char *name, bool activate = true)
{
    T *found = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                found = parent.findChild<T *>(QLatin1String(name));
                return found && found->isVisible();
            },
            kTimeoutMs))
        return nullptr;
    if (found->isWindow() && activate) {
        QApplication::setActiveWindow(found);
        if (!QTest::qWaitForWindowActive(found))
            return nullptr;
    }
    return found;
}

/// A photo of a UPI payment slip as a PNG (or JPEG) file in `dir`; its path.
QString slipPhoto(const QTemporaryDir &dir, const QString &name)
{
    QImage image(480, 300, QImage::Format_RGB32);
    image.fill(QColor(0xfa, 0xfa, 0xf5));
    QPainter painter(&image);
    painter.setPen(QColor(0x10, 0x18, 0x28));
    QFont font = painter.font();
    font.setPixelSize(22);
    painter.setFont(font);
    painter.drawText(QRect(20, 20, 440, 260), Qt::AlignLeft | Qt::TextWordWrap,
                     QStringLiteral("State Bank of India\nUPI payment successful\nRs 5,000.00 to Kirana Distributors\n"
                                    "UTR 412345678901\n28 Nov 2026 13:52"));
    painter.end();
    const QString path = dir.filePath(name);
    if (!image.save(path))
        qWarning("could not write %s", qPrintable(path));
    return path;
}

/// A file of `size` bytes that starts as a PNG does (its size alone must refuse it).
QString bigPng(const QTemporaryDir &dir, qint64 size)
{
    QByteArray bytes("\x89PNG\r\n\x1a\n", 8);
    bytes.append(QByteArray(size - bytes.size(), '\0'));
    const QString path = dir.filePath(QStringLiteral("slip-2mib.png"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qWarning("could not write %s", qPrintable(path));
    return path;
}

/// The Distributor tab of `page` opened from the keyboard (Alt+D); false when there is none.
bool openDistributorTab(WalletPage &page)
{
    auto *tabs = page.findChild<QTabWidget *>(QStringLiteral("lowerTabs"));
    if (!tabs || !QTest::qWaitFor([&] { return tabs->count() == 2; }, kTimeoutMs))
        return false;
    QTest::keyClick(&page, Qt::Key_D, Qt::AltModifier);
    return tabs->currentWidget() == page.distributorPanel();
}

/// The file dialog of `dialog`'s "Choose photo…" opened from the keyboard (Alt+H); `path` chosen in it.
bool chooseSlip(FundRequestDialog &dialog, const QString &path)
{
    QTest::keyClick(&dialog, Qt::Key_H, Qt::AltModifier);
    auto *chooser = waitFor<QFileDialog>(dialog, "slipFileDialog", false);
    if (!chooser)
        return false;
    // The path goes into the dialog's file name field, as typed there: QFileDialog::selectFile() leaves that field
    // as it is while it has the focus, which the dialog may take at any moment.
    auto *fileName = chooser->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    if (!fileName)
        return false;
    fileName->setText(path);
    QSignalSpy chosen(chooser, &QFileDialog::fileSelected);
    static_cast<QDialog *>(chooser)->accept();
    if (chosen.isEmpty())
        return false;
    // The dialog takes the keys again (its shortcuts go by QApplication's active window).
    QApplication::setActiveWindow(&dialog);
    return QTest::qWaitFor([&] { return QApplication::activeWindow() == &dialog; }, kTimeoutMs);
}

/// The texts of a column of `table`'s model, top to bottom.
QStringList column(const QTableView *table, int column)
{
    QStringList texts;
    for (int row = 0; row < table->model()->rowCount(); ++row)
        texts << table->model()->index(row, column).data().toString();
    return texts;
}

/// Account `name`'s id in `server`'s database (0 when there is none).
qint64 accountOf(TestServer &server, const QString &name)
{
    return AccountRepository(server.db()).findAccount(name).value_or(0);
}

/// A shop → distributor chain of two real servers in this process: the distributor serves the shop's account "kirana"
/// (a live pos key, ₹2,000 float there); the shop's upstream `default` is the distributor with that key, its live
/// wallet holds ₹1,880 and it warns below ₹3,000. The shop is set up as `rechargedesk setup` leaves it (admin Asha),
/// and its terminal uses a live pos key.
struct Chain
{
    static constexpr Paise kFloatThere = 200'000;
    static constexpr Paise kFloatHere = 188'000;

    static ServerOptions shopOptions()
    {
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 5000;
        options.upstreamRetryScale = 0.01;
        return options;
    }

    Chain() : shop(shopOptions())
    {
        const CreatedKey kirana = distributor.createKeyPair(Mode::Live, Scope::Pos, QStringLiteral("kirana"));
        WalletService(distributor.db(), SystemClock())
            .topup(accountOf(distributor, QStringLiteral("kirana")), Mode::Live, kFloatThere,
                   QStringLiteral("opening float"), QStringLiteral("tests"));
        options =
            setUpShopOptions(shop, dir.path(),
                             ShopSetupParams{QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road"),
                                             QStringLiteral("Asha"), QStringLiteral("482193"), QString()});
        const CreatedKey live = shop.createKeyPair(Mode::Live, Scope::Pos);
        options.keyId = live.keyId;
        options.keySecret = live.secret;
        livePos = HttpClient::basic(live.keyId, live.secret);
        WalletService(shop.db(), SystemClock())
            .topup(accountOf(shop, QStringLiteral("shop")), Mode::Live, kFloatHere, QStringLiteral("opening float"),
                   QStringLiteral("tests"));
        const HttpResult set = shop.http().sendJson(
            "PUT", shop.url(QStringLiteral("/api/v1/upstream")), shop.liveAdmin(),
            QJsonObject{{QStringLiteral("base_url"), distributor.url(QStringLiteral("/api/v1")).toString()},
                        {QStringLiteral("key_id"), kirana.keyId},
                        {QStringLiteral("key_secret"), kirana.secret}});
        if (set.status != 200)
            qWarning("upstream set: %d %s", set.status, set.body.constData());
        const HttpResult threshold =
            shop.http().sendJson("PUT", shop.url(QStringLiteral("/api/v1/shop")), shop.liveAdmin(),
                                 QJsonObject{{QStringLiteral("low_balance_threshold_rupees"), 3000}});
        if (threshold.status != 200)
            qWarning("threshold: %d %s", threshold.status, threshold.body.constData());
    }

    /// The shop's live wallet (paise; -1 when unreadable).
    qint64 liveBalance()
    {
        return shop.http()
            .get(shop.url(QStringLiteral("/api/v1/wallet")), livePos)
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    /// Ledger rows of the shop's live wallet whose note names a fund request.
    qint64 fundRequestCredits()
    {
        QSqlQuery &q = shop.db().run(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE mode = 'live' AND kind "
                                                    "= 'topup' AND note LIKE 'fund request%'"));
        const qint64 count = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return count;
    }

    QTemporaryDir dir;
    TestServer distributor;
    TestServer shop;
    TerminalOptions options;
    QByteArray livePos;
};

QString labelText(QWidget &parent, const char *name)
{
    auto *label = parent.findChild<QLabel *>(QLatin1String(name));
    return label && label->isVisibleTo(&parent) ? label->text() : QString();
}

} // namespace

Q_DECLARE_METATYPE(UpstreamWallet)

class TestUiFundRequest final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    // The card says whether the two figures agree, by how much they differ and why; what nothing explains is
    // highlighted; when the distributor could not be asked it says so in words.
    void distributorCard_data()
    {
        QTest::addColumn<UpstreamWallet>("wallet");
        QTest::addColumn<QString>("difference");
        QTest::addColumn<QString>("explained");
        QTest::addColumn<QString>("unexplained");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("shot");
        QTest::newRow("equal") << walletOf(1'250'000, 1'250'000)
                               << QStringLiteral("The same here and at the distributor") << QString() << QString()
                               << QString() << QStringLiteral("wallet-distributor-equal");
        QTest::newRow("difference") << walletOf(
                                           1'810'000, 1'250'000,
                                           {explanation(QStringLiteral("unknown_at_upstream"), 2, -39'800, {41, 44}),
                                            explanation(QStringLiteral("pending"), 1, -19'900, {45}),
                                            explanation(QStringLiteral("fund_request_not_credited"), 1, -500'000, {3})})
                                    << QStringLiteral("₹5,600.00 less here than at the distributor")
                                    << QStringLiteral(
                                           "• 2 sales not known at the distributor: ₹398.00 less here\n"
                                           "• 1 sale still pending here: ₹199.00 less here\n"
                                           "• 1 approved fund request not credited here yet: ₹5,000.00 less here")
                                    << QStringLiteral("Unexplained ₹3.00 less here — look into it") << QString()
                                    << QStringLiteral("wallet-distributor-difference");
        QTest::newRow("more here") << walletOf(1'238'000, 1'250'000)
                                   << QStringLiteral("₹120.00 more here than at the distributor") << QString()
                                   << QStringLiteral("Unexplained ₹120.00 more here — look into it") << QString()
                                   << QString();
        UpstreamWallet unreachable = walletOf(0, 1'250'000);
        unreachable.balance.reset();
        unreachable.difference.reset();
        unreachable.unexplained.reset();
        unreachable.error = QStringLiteral("no answer within 5 s (connection refused)");
        QTest::newRow("unreachable") << unreachable << QString() << QString() << QString()
                                     << QStringLiteral("The distributor could not be asked: no answer within 5 s "
                                                       "(connection refused). Sales go on as usual; the figures are "
                                                       "asked again later.")
                                     << QStringLiteral("wallet-distributor-unreachable");
    }

    void distributorCard()
    {
        QFETCH(UpstreamWallet, wallet);
        QFETCH(QString, difference);
        QFETCH(QString, explained);
        QFETCH(QString, unexplained);
        QFETCH(QString, error);
        QFETCH(QString, shot);
        CannedWallet canned;
        canned.server.wallet = wallet;
        canned.server.fundRequests = {
            requestOf(2, QStringLiteral("pending"), 500'000, QStringLiteral("upi"), QStringLiteral("412345678901"))};
        WalletPage page(canned.context);
        showActive(page);
        QVERIFY(openDistributorTab(page));
        DistributorPanel *panel = page.distributorPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->wallet().has_value(), kTimeoutMs);
        QCOMPARE(labelText(*panel, "distributorHeading"), QStringLiteral("Distributor"));
        QCOMPARE(labelText(*panel, "distributorWhere"),
                 QStringLiteral("distributor.example.in (upstream “distributor”)"));
        QCOMPARE(labelText(*panel, "distributorBalance"),
                 wallet.balance ? Money::formatIndian(*wallet.balance) : QStringLiteral("—"));
        QCOMPARE(labelText(*panel, "distributorLocalBalance"), QStringLiteral("₹12,500.00"));
        QCOMPARE(labelText(*panel, "distributorDifference"), difference);
        QCOMPARE(labelText(*panel, "distributorExplained"), explained);
        QCOMPARE(labelText(*panel, "distributorUnexplained"), unexplained);
        QCOMPARE(labelText(*panel, "distributorError"), error);
        QCOMPARE(labelText(*panel, "distributorChecked"),
                 (error.isEmpty() ? QStringLiteral("Checked at %1 IST") : QStringLiteral("Tried at %1 IST"))
                     .arg(QStringLiteral("2026-11-28 14:05:00")));
        QTRY_COMPARE_WITH_TIMEOUT(panel->requestsModel()->rowCount(), 1, kTimeoutMs);
        settleLayouts();
        if (!shot.isEmpty())
            screenshot(page, shot);
    }

    // An upstream that does not offer the balance (a spec-only aggregator): no Distributor tab, the ledger alone.
    void noDistributorWithoutTheBalance()
    {
        CannedWallet canned;
        canned.server.upstreams = {distributorInfo(true)};
        WalletPage page(canned.context);
        showActive(page);
        QTRY_VERIFY_WITH_TIMEOUT(
            !canned.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/upstreams")).isEmpty(), kTimeoutMs);
        QTest::qWait(300); // the answer is handled
        auto *tabs = page.findChild<QTabWidget *>(QStringLiteral("lowerTabs"));
        QCOMPARE(tabs->count(), 1);
        QVERIFY(!tabs->tabBar()->isVisible());
        QCOMPARE(canned.server.walletQuestions(), 0);
    }

    // A slip over 1 MiB and a text file are refused in words when chosen, and nothing is sent; a photo is shown and
    // goes with the request, typed from the keyboard.
    void slipCheckedBeforeSending()
    {
        CannedWallet canned;
        QTemporaryDir files;
        WalletPage page(canned.context);
        showActive(page);
        QVERIFY(openDistributorTab(page));
        QTest::keyClick(&page, Qt::Key_Q, Qt::AltModifier); // Re&quest top-up…
        QPointer<FundRequestDialog> dialog = waitFor<FundRequestDialog>(page, "fundRequestDialog");
        QVERIFY(dialog);
        dialog->resize(dialog->width(), dialog->sizeHint().height());
        Keyboard keys(*dialog);
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("fundAmount"));
        keys.type(QStringLiteral("5000"));
        keys.press(Qt::Key_Tab);
        keys.press(Qt::Key_Down); // UPI → Bank transfer
        keys.press(Qt::Key_Tab);
        keys.type(QStringLiteral("sbin426118893311"));
        keys.press(Qt::Key_Tab);
        keys.type(QStringLiteral("Deposited at SBI Station Road"));

        // Too large: refused by its size, before it is read or sent.
        QVERIFY(chooseSlip(*dialog, bigPng(files, 2 * 1024 * 1024)));
        auto *slipError = dialog->findChild<QLabel *>(QStringLiteral("fundError_slip"));
        QTRY_VERIFY_WITH_TIMEOUT(slipError->isVisible(), kTimeoutMs);
        QCOMPARE(slipError->text(), QStringLiteral("slip-2mib.png is 2.0 MiB: a slip photo may be at most 1 MiB. "
                                                   "Take a smaller photo or crop it."));
        QVERIFY(!dialog->slip());
        settleLayouts();
        screenshot(*dialog, QStringLiteral("fundrequest-slip-too-large"));

        // Not a photo.
        const QString text = files.filePath(QStringLiteral("slip.txt"));
        QFile txt(text);
        QVERIFY(txt.open(QIODevice::WriteOnly));
        txt.write("UTR 426118893311 paid 5000\n");
        txt.close();
        QVERIFY(chooseSlip(*dialog, text));
        QTRY_COMPARE_WITH_TIMEOUT(
            slipError->text(),
            QStringLiteral("slip.txt is not a PNG or JPEG photo. Choose a photo of the slip (PNG or JPEG)."),
            kTimeoutMs);
        QVERIFY(!dialog->slip());
        QVERIFY(!dialog->findChild<QLabel *>(QStringLiteral("fundSlipPreview"))->isVisible());

        // A photo: previewed, then sent with the request.
        const QString photo = slipPhoto(files, QStringLiteral("slip.jpg"));
        QVERIFY(chooseSlip(*dialog, photo));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->slip().has_value(), kTimeoutMs);
        QVERIFY(!slipError->isVisible());
        auto *preview = dialog->findChild<QLabel *>(QStringLiteral("fundSlipPreview"));
        QVERIFY(preview->isVisible());
        QCOMPARE(preview->pixmap().width(), 320);
        QVERIFY(labelText(*dialog, "fundSlipName").startsWith(QStringLiteral("slip.jpg · ")));
        settleLayouts();
        screenshot(*dialog, QStringLiteral("fundrequest-dialog-filled"));
        QVERIFY(canned.server
                    .requests(QStringLiteral("POST"), QStringLiteral("/api/v1/upstreams/distributor/fund-requests"))
                    .isEmpty());

        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("fundSend"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), kTimeoutMs); // closed (and deleted)
        const QList<CannedApiServer::Request> posted = canned.server.requests(
            QStringLiteral("POST"), QStringLiteral("/api/v1/upstreams/distributor/fund-requests"));
        QCOMPARE(posted.size(), 1);
        const QJsonObject body = posted.first().body;
        QCOMPARE(body.value(QStringLiteral("amount")).toInteger(), 5000);
        QCOMPARE(body.value(QStringLiteral("method")).toString(), QStringLiteral("bank"));
        QCOMPARE(body.value(QStringLiteral("utr")).toString(), QStringLiteral("sbin426118893311"));
        QCOMPARE(body.value(QStringLiteral("note")).toString(), QStringLiteral("Deposited at SBI Station Road"));
        const QJsonObject slip = body.value(QStringLiteral("slip")).toObject();
        QCOMPARE(slip.value(QStringLiteral("content_type")).toString(), QStringLiteral("image/jpeg"));
        QFile sent(photo);
        QVERIFY(sent.open(QIODevice::ReadOnly));
        QCOMPARE(QByteArray::fromBase64(slip.value(QStringLiteral("data")).toString().toLatin1()), sent.readAll());
        auto *table = page.findChild<QTableView *>(QStringLiteral("fundRequestsTable"));
        QTRY_COMPARE_WITH_TIMEOUT(column(table, 4), QStringList{QStringLiteral("Waiting for the distributor")},
                                  kTimeoutMs);
    }

    // Nothing is sent while the form is incomplete: the problems are said at their fields.
    void incompleteFormIsNotSent()
    {
        CannedWallet canned;
        WalletPage page(canned.context);
        showActive(page);
        QVERIFY(openDistributorTab(page));
        QTest::keyClick(&page, Qt::Key_Q, Qt::AltModifier);
        QPointer<FundRequestDialog> dialog = waitFor<FundRequestDialog>(page, "fundRequestDialog");
        QVERIFY(dialog);
        Keyboard keys(*dialog);
        keys.press(Qt::Key_Tab);
        keys.press(Qt::Key_Tab);
        keys.type(QStringLiteral("12-4"));
        keys.press(Qt::Key_Return);
        QCOMPARE(labelText(*dialog, "fundError_amount"),
                 QStringLiteral("Enter the amount you paid in whole rupees, e.g. 5000."));
        QVERIFY(labelText(*dialog, "fundError_utr").startsWith(QStringLiteral("Enter the UTR or reference")));
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("fundAmount"));
        QVERIFY(canned.server
                    .requests(QStringLiteral("POST"), QStringLiteral("/api/v1/upstreams/distributor/fund-requests"))
                    .isEmpty());
        keys.press(Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), kTimeoutMs); // closed (and deleted)
    }

    // A request the distributor refused says its words in the dialog, which stays open to be corrected and sent again.
    void refusedRequestStaysOpenToCorrect()
    {
        CannedWallet canned;
        WalletPage page(canned.context);
        showActive(page);
        QVERIFY(openDistributorTab(page));
        QTest::keyClick(&page, Qt::Key_Q, Qt::AltModifier);
        QPointer<FundRequestDialog> dialog = waitFor<FundRequestDialog>(page, "fundRequestDialog");
        QVERIFY(dialog);
        Keyboard keys(*dialog);
        keys.type(QStringLiteral("2500"));
        keys.press(Qt::Key_Tab);
        keys.press(Qt::Key_Tab);
        keys.type(canned.server.refusedUtr);
        keys.press(Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(
            labelText(*dialog, "fundError"),
            QStringLiteral("The distributor refused it: utr: this UTR was already used by an earlier request"),
            kTimeoutMs);
        QVERIFY(dialog->isVisible());
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("fundUtr"));
        auto *table = page.findChild<QTableView *>(QStringLiteral("fundRequestsTable"));
        QTRY_COMPARE_WITH_TIMEOUT(
            column(table, 4),
            QStringList{QStringLiteral("Refused: utr: this UTR was already used by an earlier request")}, kTimeoutMs);

        // Corrected and sent again: a second request, waiting; the dialog closes.
        static_cast<QLineEdit *>(QApplication::focusWidget())->clear();
        keys.type(QStringLiteral("412300002222"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), kTimeoutMs); // closed (and deleted)
        QTRY_COMPARE_WITH_TIMEOUT(column(table, 4).value(0), QStringLiteral("Waiting for the distributor"), kTimeoutMs);
        QCOMPARE(canned.server
                     .requests(QStringLiteral("POST"), QStringLiteral("/api/v1/upstreams/distributor/fund-requests"))
                     .size(),
                 2);
    }

    // Every state of a request in words.
    void requestListSaysEveryState()
    {
        CannedWallet canned;
        canned.server.wallet = walletOf(1'238'000, 1'250'000);
        canned.server.fundRequests = {
            requestOf(5, QStringLiteral("sending"), 200'000, QStringLiteral("upi"), QStringLiteral("412399887766")),
            requestOf(4, QStringLiteral("pending"), 500'000, QStringLiteral("bank"),
                      QStringLiteral("SBIN426118893311")),
            requestOf(3, QStringLiteral("approved"), 1'000'000, QStringLiteral("cash_deposit"),
                      QStringLiteral("CDM-7781")),
            requestOf(2, QStringLiteral("rejected"), 300'000, QStringLiteral("upi"), QStringLiteral("412300001111"),
                      QStringLiteral("No such UTR in our bank statement")),
            requestOf(1, QStringLiteral("refused"), 250'000, QStringLiteral("upi"), QStringLiteral("412300001111"),
                      QStringLiteral("utr: this UTR was already used by an earlier request"))};
        WalletPage page(canned.context);
        showActive(page);
        QVERIFY(openDistributorTab(page));
        auto *table = page.findChild<QTableView *>(QStringLiteral("fundRequestsTable"));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 5, kTimeoutMs);
        QCOMPARE(column(table, 4),
                 (QStringList{QStringLiteral("Sending"), QStringLiteral("Waiting for the distributor"),
                              QStringLiteral("Approved — credited"),
                              QStringLiteral("Rejected: No such UTR in our bank statement"),
                              QStringLiteral("Refused: utr: this UTR was already used by an earlier request")}));
        QCOMPARE(column(table, 2),
                 (QStringList{QStringLiteral("UPI"), QStringLiteral("Bank transfer"), QStringLiteral("Cash deposit"),
                              QStringLiteral("UPI"), QStringLiteral("UPI")}));
        QCOMPARE(column(table, 1).at(2), QStringLiteral("₹10,000.00"));
        QTRY_VERIFY_WITH_TIMEOUT(page.distributorPanel()->wallet().has_value(), kTimeoutMs);
        settleLayouts();
        screenshot(page, QStringLiteral("wallet-distributor-requests"));
    }

    // The status bar warns while the distributor's figure is below the shop's threshold, asks at most once per
    // interval however often it is refreshed, and says nothing when the distributor could not be asked.
    void statusBarWarning()
    {
        CannedWallet canned;
        canned.server.wallet = walletOf(42'000, 1'250'000);
        canned.server.threshold = 500'000;
        ElidedLabel label;
        DistributorBalanceWatch watch(canned.context, &label, nullptr, 1500);
        ShopInfo shop;
        shop.lowBalanceThreshold = canned.server.threshold;
        canned.context.applyShop(shop);
        watch.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(watch.text(), QStringLiteral("Distributor balance ₹420.00 — below ₹5,000.00"),
                                  kTimeoutMs);
        QVERIFY(!label.isHidden());
        // A status bar short of room: the warning gives way with "…", whole in its tooltip.
        QCOMPARE(label.text(), label.fullText());
        label.resize(label.sizeHint().width() - 20, label.height());
        QCOMPARE(label.text(), QStringLiteral("Distributor ₹420.00 — below ₹5,000.00"));
        label.resize(label.minimumSizeHint().width(), label.height());
        QVERIFY2(label.text().endsWith(QChar(0x2026)) && label.text().size() < label.fullText().size(),
                 qPrintable(label.text()));
        QVERIFY(label.toolTip().startsWith(label.fullText()));
        label.resize(label.sizeHint());
        QCOMPARE(label.text(), label.fullText());
        for (int i = 0; i < 5; ++i)
            watch.refresh();
        QTest::qWait(200);
        QCOMPARE(canned.server.walletQuestions(), 1);

        // Above the threshold once the distributor credits us: no warning at the next question.
        canned.server.wallet = walletOf(542'000, 1'250'000);
        QTRY_VERIFY_WITH_TIMEOUT((watch.refresh(), canned.server.walletQuestions() == 2), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(label.isHidden(), kTimeoutMs);

        // A lower threshold takes effect at once; the distributor unreachable: no warning, no figure.
        canned.server.wallet = walletOf(42'000, 1'250'000);
        QTRY_VERIFY_WITH_TIMEOUT((watch.refresh(), canned.server.walletQuestions() == 3), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!label.isHidden(), kTimeoutMs);
        shop.lowBalanceThreshold = 40'000;
        canned.context.applyShop(shop);
        QVERIFY(label.isHidden());
        shop.lowBalanceThreshold = 500'000;
        canned.context.applyShop(shop);
        QVERIFY(!label.isHidden());
        canned.server.wallet.balance.reset();
        canned.server.wallet.difference.reset();
        canned.server.wallet.unexplained.reset();
        canned.server.wallet.error = QStringLiteral("no answer within 5 s");
        QTRY_VERIFY_WITH_TIMEOUT((watch.refresh(), canned.server.walletQuestions() == 4), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(label.isHidden(), kTimeoutMs);
        QCOMPARE(watch.balance(), std::nullopt);
    }

    // A clerk, whom the list of upstreams is refused, is warned as well: the server's upstream `default` is asked.
    void clerkIsWarnedToo()
    {
        CannedWallet canned;
        canned.server.clerk = true;
        canned.server.upstreams.first().name = QStringLiteral("default");
        canned.server.wallet = walletOf(42'000, 1'250'000);
        ElidedLabel label;
        DistributorBalanceWatch watch(canned.context, &label);
        ShopInfo shop;
        shop.lowBalanceThreshold = 500'000;
        canned.context.applyShop(shop);
        watch.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(watch.text(), QStringLiteral("Distributor balance ₹420.00 — below ₹5,000.00"),
                                  kTimeoutMs);
        QCOMPARE(canned.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/upstream")).size(), 1);
        QCOMPARE(
            canned.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/upstreams/default/wallet")).size(),
            1);
    }

    // The whole chain, typed into the terminal window: the request goes to a real distributor server, waits there,
    // is approved there over HTTP, and the shop's live wallet is credited once; a second approval changes nothing.
    // Meanwhile the status bar warns that the distributor's figure is below the shop's threshold.
    void requestApprovedAtTheDistributorIsCreditedOnce()
    {
        Chain chain;
        QTemporaryDir files;
        MainWindow window(chain.options);
        window.resize(1366, 768);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        signIn(window, QStringLiteral("Asha"), QStringLiteral("482193"));
        QTRY_VERIFY_WITH_TIMEOUT(currentPage(window) == window.terminalView(), kTimeoutMs);
        QVERIFY(window.terminalView()->showScreen(QStringLiteral("backoffice")));
        auto *backOffice = window.terminalView()->findChild<BackOfficeView *>();
        QVERIFY(backOffice);
        WalletPage *page = backOffice->walletPage();
        backOffice->setCurrentWidget(page);
        QVERIFY(openDistributorTab(*page));
        DistributorPanel *panel = page->distributorPanel();
        QCOMPARE(panel->upstreamName(), QStringLiteral("default"));
        QTRY_VERIFY_WITH_TIMEOUT(panel->wallet().has_value(), kTimeoutMs);
        QCOMPARE(labelText(*panel, "distributorBalance"), QStringLiteral("₹2,000.00"));
        QCOMPARE(labelText(*panel, "distributorLocalBalance"), QStringLiteral("₹1,880.00"));
        QCOMPARE(labelText(*panel, "distributorDifference"),
                 QStringLiteral("₹120.00 less here than at the distributor"));
        QCOMPARE(labelText(*panel, "distributorUnexplained"),
                 QStringLiteral("Unexplained ₹120.00 less here — look into it"));
        QTRY_COMPARE_WITH_TIMEOUT(window.statusPanel()->distributorText(),
                                  QStringLiteral("Distributor balance ₹2,000.00 — below ₹3,000.00"), kTimeoutMs);
        // Beside the shop's own low-balance warning; the status bar never needs more than a 1366 px screen.
        settleLayouts();
        QVERIFY2(window.statusBar()->minimumSizeHint().width() <= 1366,
                 qPrintable(QString::number(window.statusBar()->minimumSizeHint().width())));
        // At 1366 px beside everything else the status bar shows: whole, or in its shorter words, never cut.
        const QStringList whole{QStringLiteral("Distributor balance ₹2,000.00 — below ₹3,000.00"),
                                QStringLiteral("Distributor ₹2,000.00 — below ₹3,000.00")};
        QTRY_VERIFY_WITH_TIMEOUT(whole.contains(labelText(*window.statusBar(), "distributorWarning")), kTimeoutMs);

        // Asked from the keyboard, with a photo of the slip.
        QTest::keyClick(page, Qt::Key_Q, Qt::AltModifier);
        QPointer<FundRequestDialog> dialog = waitFor<FundRequestDialog>(*page, "fundRequestDialog");
        QVERIFY(dialog);
        Keyboard keys(*dialog);
        keys.type(QStringLiteral("5000"));
        keys.press(Qt::Key_Tab);
        keys.press(Qt::Key_Tab); // paid by UPI
        keys.type(QStringLiteral("412345678901"));
        keys.press(Qt::Key_Tab);
        keys.type(QStringLiteral("GPay to Kirana Distributors"));
        QVERIFY(chooseSlip(*dialog, slipPhoto(files, QStringLiteral("slip.png"))));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->slip().has_value(), kTimeoutMs);
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), kTimeoutMs); // closed (and deleted)
        auto *table = page->findChild<QTableView *>(QStringLiteral("fundRequestsTable"));
        QTRY_COMPARE_WITH_TIMEOUT(column(table, 4), QStringList{QStringLiteral("Waiting for the distributor")},
                                  kTimeoutMs);
        QCOMPARE(column(table, 1), QStringList{QStringLiteral("₹5,000.00")});
        QCOMPARE(column(table, 3), QStringList{QStringLiteral("412345678901")});
        settleLayouts();
        screenshot(window, QStringLiteral("terminal-wallet-distributor-waiting"));
        screenshot(*window.statusBar(), QStringLiteral("statusbar-distributor-warning"));
        QCOMPARE(chain.liveBalance(), Chain::kFloatHere);

        // At the distributor: the request with its slip, approved by its admin over HTTP.
        const std::optional<UpstreamFundRequest> sent =
            TypedColumn::item<UpstreamFundRequest>(*panel->requestsModel(), 0);
        QVERIFY(sent && sent->remoteId > 0);
        const QUrl there = chain.distributor.url(QStringLiteral("/api/v1/fund-requests/%1").arg(sent->remoteId));
        const HttpResult asked = chain.distributor.http().get(there, chain.distributor.liveAdmin());
        QCOMPARE(asked.status, 200);
        QCOMPARE(asked.data().value(QStringLiteral("state")).toString(), QStringLiteral("pending"));
        QCOMPARE(asked.data().value(QStringLiteral("has_slip")).toBool(), true);
        QCOMPARE(asked.data().value(QStringLiteral("note")).toString(), QStringLiteral("GPay to Kirana Distributors"));
        const QUrl approve =
            chain.distributor.url(QStringLiteral("/api/v1/fund-requests/%1/approve").arg(sent->remoteId));
        const HttpResult approved =
            chain.distributor.http().postJson(approve, QJsonObject{}, chain.distributor.liveAdmin());
        QVERIFY2(approved.status == 200, approved.body.constData());

        // Back at the shop: approved and credited once, the wallet up by ₹5,000.
        QTRY_COMPARE_WITH_TIMEOUT(column(table, 4), QStringList{QStringLiteral("Approved — credited")}, kTimeoutMs);
        QCOMPARE(chain.liveBalance(), Chain::kFloatHere + 500'000);
        QCOMPARE(chain.fundRequestCredits(), 1);
        auto *walletBalance = page->findChild<QLabel *>(QStringLiteral("walletBalance"));
        QTRY_COMPARE_WITH_TIMEOUT(walletBalance->text(), QStringLiteral("₹6,880.00"), kTimeoutMs);
        settleLayouts();
        screenshot(window, QStringLiteral("terminal-wallet-distributor-credited"));

        // A second approval is refused there; nothing moves here, however often the page asks again.
        const HttpResult again =
            chain.distributor.http().postJson(approve, QJsonObject{}, chain.distributor.liveAdmin());
        QCOMPARE(again.status, 409);
        QSignalSpy reloads(panel->requestsModel(), &CollectionModel::loaded);
        QTest::keyClick(page, Qt::Key_A, Qt::AltModifier); // Check &again
        QTRY_VERIFY_WITH_TIMEOUT(reloads.size() >= 1, kTimeoutMs);
        QCOMPARE(column(table, 4), QStringList{QStringLiteral("Approved — credited")});
        QCOMPARE(chain.liveBalance(), Chain::kFloatHere + 500'000);
        QCOMPARE(chain.fundRequestCredits(), 1);
    }
};

QTEST_MAIN(TestUiFundRequest)
#include "tst_ui_fundrequest.moc"
