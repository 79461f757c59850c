#include "walletpage.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "entities/ledgerentry.h"
#include "funds/distributorlookup.h"
#include "funds/distributorpanel.h"
#include "money.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "ui_walletpage.h"
#include "walletapi.h"
#include "widgets/columnwidths.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>

namespace {

using BackOfficeUi::actorText;

QString kindText(LedgerKind kind)
{
    switch (kind) {
    case LedgerKind::Topup:
        return WalletPage::tr("Top-up");
    case LedgerKind::Debit:
        return WalletPage::tr("Sale");
    case LedgerKind::Refund:
        return WalletPage::tr("Refund");
    case LedgerKind::Opening:
        return WalletPage::tr("Opening balance");
    }
    Q_UNREACHABLE();
}

/// Who is behind a ledger row: its actor, or for a sale's debit (which has none) the clerk who sold it (issue 27).
QString byText(const LedgerEntry &entry)
{
    if (!entry.actor.isEmpty() || entry.transactionId <= 0)
        return actorText(entry.actor);
    return entry.clerk.isEmpty() ? WalletPage::tr("Counter (API)") : entry.clerk;
}

QList<CollectionColumn> ledgerColumns()
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        TypedColumn::make<LedgerEntry>(WalletPage::tr("When (IST)"),
                                       [](const LedgerEntry &e) { return IstTime::formatMs(e.createdAtMs); }),
        TypedColumn::make<LedgerEntry>(WalletPage::tr("Kind"), [](const LedgerEntry &e) { return kindText(e.kind); }),
        TypedColumn::make<LedgerEntry>(
            WalletPage::tr("Amount"), [](const LedgerEntry &e) { return Money::formatIndian(e.amount); }, right),
        TypedColumn::make<LedgerEntry>(
            WalletPage::tr("Transaction"),
            [](const LedgerEntry &e) { return e.transactionId > 0 ? QString::number(e.transactionId) : QString(); },
            right),
        TypedColumn::make<LedgerEntry>(WalletPage::tr("By"), [](const LedgerEntry &e) { return byText(e); }),
        TypedColumn::make<LedgerEntry>(WalletPage::tr("Note"), [](const LedgerEntry &e) { return e.note; }),
    };
}

/// Filters the loaded ledger rows (of a CollectionModel) by kind and by text in any column. A row that does not
/// decode matches no kind; its cells say what is wrong, so the text filter finds it like any other.
class LedgerFilter final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    /// `kind` nullopt: every kind.
    void setFilter(std::optional<LedgerKind> kind, const QString &text)
    {
        m_kind = kind;
        m_text = text.trimmed();
        invalidateRowsFilter();
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override
    {
        const auto *source = static_cast<const CollectionModel *>(sourceModel());
        if (m_kind) {
            const std::optional<LedgerEntry> entry = TypedColumn::item<LedgerEntry>(*source, sourceRow);
            if (!entry || entry->kind != *m_kind)
                return false;
        }
        if (m_text.isEmpty())
            return true;
        for (int column = 0; column < source->columnCount(sourceParent); ++column) {
            if (source->index(sourceRow, column, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
                return true;
        }
        return false;
    }

private:
    std::optional<LedgerKind> m_kind;
    QString m_text;
};

} // namespace

WalletPage::WalletPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context),
      m_ledger(new CollectionModel(context.api(), WalletApi::ledgerPath(), ledgerColumns(), 100, this)),
      m_filter(new LedgerFilter(this)), m_ui(std::make_unique<Ui::WalletPage>()),
      m_topupNotice(BackOfficeUi::notice(this)), m_thresholdNotice(BackOfficeUi::notice(this)),
      m_ledgerError(BackOfficeUi::generalError(this)), m_lookup(new DistributorLookup(context.api(), this))
{
    m_ui->setupUi(this);
    const bool test = context.api().isTestMode();
    m_filter->setSourceModel(m_ledger);
    m_table = BackOfficeUi::table(m_filter, QStringLiteral("ledgerTable"), this);
    QLabel *topupGeneral = BackOfficeUi::generalError(m_ui->topupCard);
    QLabel *thresholdGeneral = BackOfficeUi::generalError(m_ui->thresholdCard);
    m_topupErrors = std::make_unique<FormErrors>(topupGeneral);
    m_thresholdErrors = std::make_unique<FormErrors>(thresholdGeneral);
    for (QLabel *fieldError : {m_ui->amountError, m_ui->noteError, m_ui->thresholdError})
        fieldError->setObjectName(QStringLiteral("fieldError")); // the test handle of FormErrors (its look: addField)
    m_topupErrors->addField(QStringLiteral("amount"), m_ui->amountError);
    m_topupErrors->addField(QStringLiteral("note"), m_ui->noteError);
    m_thresholdErrors->addField(QStringLiteral("low_balance_threshold_rupees"), m_ui->thresholdError);
    m_topupNotice->setObjectName(QStringLiteral("topupNotice"));
    m_thresholdNotice->setObjectName(QStringLiteral("thresholdNotice"));
    m_ledgerError->setObjectName(QStringLiteral("ledgerError"));
    m_ui->topupAmount->setKind(DigitsLineEdit::Kind::Rupees);
    m_ui->lowBalanceThreshold->setKind(DigitsLineEdit::Kind::Rupees);

    // What depends on the key's mode.
    m_ui->balanceTitle->setText(test ? tr("Test wallet balance") : tr("Wallet balance"));
    m_ui->modeHint->setText(test ? tr("Test wallet: sandbox money for trying the terminal. Top-ups are free.")
                                 : tr("Live wallet: every top-up is recorded with who did it and why."));
    m_ui->topupNote->setPlaceholderText(test ? tr("Optional") : tr("Required: why, e.g. cash deposit slip 4411"));

    // The back office's shared pieces go into the form's boxes: headings first, banners and notices last.
    for (QWidget *card : {m_ui->balanceCard, m_ui->topupCard, m_ui->thresholdCard})
        BackOfficeUi::makeCard(card);
    m_ui->topupLayout->insertWidget(0, BackOfficeUi::heading(tr("Top up"), m_ui->topupCard));
    m_ui->topupLayout->addWidget(m_topupNotice);
    m_ui->topupLayout->addWidget(topupGeneral);
    m_ui->thresholdLayout->insertWidget(0, BackOfficeUi::heading(tr("Low-balance warning"), m_ui->thresholdCard));
    m_ui->thresholdLayout->addWidget(m_thresholdNotice);
    m_ui->thresholdLayout->addWidget(thresholdGeneral);
    // The row of cards scrolls on its own when a kiosk's large font makes it taller than its share of 720 px, so no
    // card is squeezed; the heading sits beside the filters, so the ledger keeps its rows (issue 27).
    QScrollArea *cards = BackOfficeUi::scrollArea(m_ui->side, this); // takes `side` out of the page
    cards->setFocusPolicy(Qt::NoFocus);
    m_ui->body->insertWidget(0, cards);
    m_ui->filterRow->insertWidget(0, BackOfficeUi::heading(tr("Ledger (newest first)"), this));
    m_ui->ledgerLayout->addWidget(m_ledgerError);
    m_ui->ledgerLayout->addWidget(m_table, 1);

    m_ui->ledgerKind->addItem(tr("All entries"), QString());
    m_ui->ledgerKind->addItem(tr("Top-ups"), LedgerNames::kind(LedgerKind::Topup));
    m_ui->ledgerKind->addItem(tr("Sales"), LedgerNames::kind(LedgerKind::Debit));
    m_ui->ledgerKind->addItem(tr("Refunds"), LedgerNames::kind(LedgerKind::Refund));
    m_ui->ledgerKind->addItem(tr("Opening balance"), LedgerNames::kind(LedgerKind::Opening));
    // Each column as wide as its text in the table's real font, so all of them fit beside the cards at 1280 px and the
    // note (the last, stretched) keeps the rest; a longer note shows whole in its tooltip (issue 27).
    new ColumnWidths(m_table, {{0, QStringLiteral("2026-12-31 23:59:59")},
                               {1, tr("Opening balance")},
                               {2, Money::formatIndian(-Paise(9'999'999))},
                               {3, QStringLiteral("0000000")},
                               {4, BackOfficeUi::actorText(QStringLiteral("system"))}});

    setTabOrder(m_ui->ledgerSearch, m_table); // the form orders topupAmount … ledgerSearch
    // Left to right along the cards, then the ledger: Refresh (in the balance card) comes first.
    setTabOrder(m_ui->refreshWallet, m_ui->topupAmount);

    connect(m_ui->refreshWallet, &QPushButton::clicked, this, &WalletPage::refresh);
    connect(m_ui->topupAmount, &QLineEdit::returnPressed, m_ui->topupNote, qOverload<>(&QWidget::setFocus));
    connect(m_ui->topupNote, &QLineEdit::returnPressed, this, &WalletPage::onTopupClicked);
    connect(m_ui->topupButton, &QPushButton::clicked, this, &WalletPage::onTopupClicked);
    connect(m_ui->lowBalanceThreshold, &QLineEdit::returnPressed, this, &WalletPage::onSaveThresholdClicked);
    connect(m_ui->saveThreshold, &QPushButton::clicked, this, &WalletPage::onSaveThresholdClicked);
    connect(m_ui->ledgerKind, &QComboBox::currentIndexChanged, this, &WalletPage::applyLedgerFilter);
    connect(m_ui->ledgerSearch, &QLineEdit::textChanged, this, &WalletPage::applyLedgerFilter);
    // The ledger and the Distributor switch by their mnemonics (Alt+L, Alt+D); Tab goes through the fields only, so
    // the tab order stays that of the fields while the ledger is alone.
    m_ui->lowerTabs->setFocusPolicy(Qt::NoFocus);
    m_ui->lowerTabs->tabBar()->setFocusPolicy(Qt::NoFocus);
    for (QWidget *scroll : m_ui->lowerTabs->tabBar()->findChildren<QWidget *>())
        scroll->setFocusPolicy(Qt::NoFocus);
    connect(m_ledger, &CollectionModel::loaded, m_ledgerError, &QWidget::hide);
    connect(m_ledger, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_ledgerError->setText(tr("The ledger could not be loaded: %1").arg(error.description()));
        m_ledgerError->show();
    });
}

WalletPage::~WalletPage() = default;

void WalletPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    m_ui->topupAmount->setFocus();
}

void WalletPage::refresh()
{
    loadBalance();
    loadThreshold();
    m_ledger->reload();
    findDistributor();
}

void WalletPage::findDistributor()
{
    m_lookup->find([this](bool answered, const std::optional<UpstreamInfo> &upstream) {
        if (!answered)
            return; // keep what is shown; the next refresh asks again
        QTabWidget *tabs = m_ui->lowerTabs;
        const int index = m_distributor ? tabs->indexOf(m_distributor) : -1;
        if (!upstream) {
            if (index >= 0)
                tabs->removeTab(index);
            if (m_distributor)
                m_distributor->hide();
            return;
        }
        if (!m_distributor) { // made once needed, so its fields come after the ledger in the tab order
            m_distributor = new DistributorPanel(m_context, this);
            connect(m_distributor, &DistributorPanel::credited, this, [this] {
                loadBalance();
                m_ledger->reload();
                emit m_context.salesChanged(); // the status bar shows the wallet
            });
        }
        if (index < 0)
            tabs->addTab(m_distributor, tr("&Distributor"));
        m_distributor->setUpstream(*upstream);
    });
}

void WalletPage::loadBalance()
{
    if (m_balanceCall)
        m_balanceCall->abort();
    m_balanceCall = WalletApi(m_context.api()).balance().then(this, [this](const Answer<WalletBalance> &answer) {
        if (!answer.ok()) {
            m_ui->walletBalance->setText(QStringLiteral("—"));
            m_ui->walletBalance->setToolTip(answer.error->description());
            return;
        }
        m_ui->walletBalance->setText(Money::formatIndian(answer.value->balance));
        m_ui->walletBalance->setToolTip(QString());
    });
}

void WalletPage::loadThreshold()
{
    ShopApi(m_context.api()).get().then(this, [this](const Answer<ShopInfo> &answer) {
        if (!answer.ok() || m_ui->lowBalanceThreshold->hasFocus())
            return; // keep what the person is typing
        m_ui->lowBalanceThreshold->setText(QString::number(answer.value->lowBalanceThreshold / Money::kPaisePerRupee));
    });
}

void WalletPage::applyLedgerFilter()
{
    static_cast<LedgerFilter *>(m_filter)->setFilter(
        LedgerNames::kindFromString(m_ui->ledgerKind->currentData().toString()), m_ui->ledgerSearch->text());
}

void WalletPage::onTopupClicked()
{
    if (m_busy)
        return;
    m_topupErrors->clear();
    BackOfficeUi::showNotice(m_topupNotice, QString());
    bool ok = false;
    const qint64 rupees = m_ui->topupAmount->text().toLongLong(&ok);
    if (!ok || rupees <= 0) {
        m_topupErrors->showAt(QStringLiteral("amount"), tr("Enter the top-up in whole rupees, e.g. 5000."));
        m_ui->topupAmount->setFocus();
        return;
    }
    const QString note = m_ui->topupNote->text().trimmed();
    if (m_context.api().isTestMode()) {
        sendTopup(rupees, note);
        return;
    }
    if (note.isEmpty()) {
        m_topupErrors->showAt(QStringLiteral("note"),
                              tr("A live top-up needs a note saying why (e.g. the deposit slip)."));
        m_ui->topupNote->setFocus();
        return;
    }
    BackOfficeUi::confirm(this, tr("Live top-up"),
                          tr("Add %1 to the LIVE wallet?\nNote: %2\nThis is recorded with your name.")
                              .arg(Money::formatIndian(rupees * Money::kPaisePerRupee), note),
                          tr("Top up"), [this, rupees, note] { sendTopup(rupees, note); });
}

void WalletPage::sendTopup(qint64 rupees, const QString &note)
{
    m_busy = true;
    m_ui->topupButton->setEnabled(false);
    WalletApi(m_context.api()).topUp(rupees, note).then(this, [this, rupees](const Answer<WalletBalance> &answer) {
        m_busy = false;
        m_ui->topupButton->setEnabled(true);
        if (!answer.ok()) {
            m_topupErrors->show(*answer.error);
            m_ui->topupAmount->setFocus();
            return;
        }
        const QString balance = Money::formatIndian(answer.value->balance);
        m_ui->walletBalance->setText(balance);
        BackOfficeUi::showNotice(
            m_topupNotice,
            tr("Added %1. New balance %2.").arg(Money::formatIndian(rupees * Money::kPaisePerRupee), balance));
        m_ui->topupAmount->clear();
        m_ui->topupNote->clear();
        m_ui->topupAmount->setFocus();
        m_ledger->reload();
        emit m_context.salesChanged(); // the status bar shows the wallet
    });
}

void WalletPage::onSaveThresholdClicked()
{
    m_thresholdErrors->clear();
    BackOfficeUi::showNotice(m_thresholdNotice, QString());
    bool ok = false;
    const qint64 rupees = m_ui->lowBalanceThreshold->text().toLongLong(&ok);
    if (!ok || rupees < 0) {
        m_thresholdErrors->showAt(QStringLiteral("low_balance_threshold_rupees"),
                                  tr("Enter the threshold in whole rupees (0 turns the warning off)."));
        return;
    }
    m_ui->saveThreshold->setEnabled(false);
    ShopApi(m_context.api())
        .update(QJsonObject{{QStringLiteral("low_balance_threshold_rupees"), rupees}})
        .then(this, [this](const Answer<ShopInfo> &answer) {
            m_ui->saveThreshold->setEnabled(true);
            if (!answer.ok()) {
                m_thresholdErrors->show(*answer.error);
                return;
            }
            BackOfficeUi::showNotice(
                m_thresholdNotice,
                tr("Saved: warn below %1.").arg(Money::formatIndian(answer.value->lowBalanceThreshold)));
            emit m_context.salesChanged();
        });
}
