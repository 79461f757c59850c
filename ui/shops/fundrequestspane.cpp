#include "fundrequestspane.h"

#include "apiclient.h"
#include "backoffice/backofficeui.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/typedcolumn.h"
#include "clock.h"
#include "fundrequestsapi.h"
#include "reasondialog.h"
#include "terminalcontext.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace {

constexpr int kDetailWidth = 390;
constexpr int kUtrColumn = 4;
const QSize kSlipSize(360, 300);

QString istText(const QDateTime &at)
{
    return at.isValid() ? IstTime::toIst(at).toString(QStringLiteral("dd MMM HH:mm")) : QString();
}

QString utrText(const FundRequest &r)
{
    return r.duplicateUtr ? FundRequestsPane::tr("DUPLICATE UTR · %1").arg(r.utr) : r.utr;
}

QList<CollectionColumn> requestColumns()
{
    using TypedColumn::make;
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        make<FundRequest>(FundRequestsPane::tr("No."), [](const FundRequest &r) { return QString::number(r.id); }),
        make<FundRequest>(FundRequestsPane::tr("Shop"), [](const FundRequest &r) { return r.shopName; }),
        make<FundRequest>(
            FundRequestsPane::tr("Amount"), [](const FundRequest &r) { return Money::formatIndian(r.amount); }, right),
        make<FundRequest>(FundRequestsPane::tr("Paid by"),
                          [](const FundRequest &r) { return FundRequestsPane::methodText(r.method); }),
        make<FundRequest>(FundRequestsPane::tr("UTR"), &utrText),
        make<FundRequest>(FundRequestsPane::tr("Asked (IST)"),
                          [](const FundRequest &r) { return istText(r.createdAt); }),
        make<FundRequest>(FundRequestsPane::tr("State"),
                          [](const FundRequest &r) { return FundRequestsPane::stateText(r.state); }),
    };
}

/// Shades the rows of requests whose UTR another request carries too (their UTR cell says so in words).
class DuplicateShading final : public QIdentityProxyModel
{
public:
    DuplicateShading(CollectionModel *source, QObject *parent) : QIdentityProxyModel(parent), m_source(source)
    {
        setSourceModel(source);
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if ((role == Qt::BackgroundRole || role == Qt::ForegroundRole) && index.isValid() &&
            m_source->item(index.row()).value(QStringLiteral("duplicate_utr")).toBool()) {
            if (role == Qt::BackgroundRole)
                return QBrush(QColor(0xfe, 0xe4, 0xe2));
            if (index.column() == kUtrColumn)
                return QBrush(QColor(0xb4, 0x23, 0x18));
        }
        return QIdentityProxyModel::data(index, role);
    }

private:
    CollectionModel *m_source;
};

} // namespace

FundRequestsPane::FundRequestsPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context),
      m_model(new CollectionModel(context.api(), FundRequestsApi::listPath(), requestColumns(), 200, this)),
      m_state(new QComboBox(this)), m_message(new QLabel(this)), m_heading(BackOfficeUi::heading(QString(), this)),
      m_detail(new QLabel(this)), m_duplicate(new QLabel(this)), m_slip(new QLabel(this)),
      m_approve(new QPushButton(tr("&Approve…"), this)), m_reject(new QPushButton(tr("&Reject…"), this))
{
    setObjectName(QStringLiteral("fundRequestsPane"));
    m_table = BackOfficeUi::table(new DuplicateShading(m_model, this), QStringLiteral("fundRequestsTable"), this);
    // The UTR takes what is left (elided; the detail pane shows it whole), so the time asked and the state stay in view
    // beside the detail pane at 1366 px with the terminal's navigation.
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    constexpr int kUtrColumn = 4;
    header->setSectionResizeMode(kUtrColumn, QHeaderView::Stretch);
    int section = 0;
    for (const int width : {36, 130, 90, 105, 0, 100, 80}) {
        if (section != kUtrColumn)
            header->resizeSection(section, width);
        ++section;
    }
    m_state->setObjectName(QStringLiteral("fundStateFilter"));
    m_state->addItem(tr("All (pending first)"), QString());
    m_state->addItem(tr("Pending"), QStringLiteral("pending"));
    m_state->addItem(tr("Approved"), QStringLiteral("approved"));
    m_state->addItem(tr("Rejected"), QStringLiteral("rejected"));
    m_message->setObjectName(QStringLiteral("fundMessage"));
    m_message->setWordWrap(true);
    m_message->hide();
    auto *refresh = new QPushButton(tr("Refresh (F5)"), this);
    refresh->setObjectName(QStringLiteral("refreshFundRequests"));

    auto *detail = new QWidget(this);
    detail->setObjectName(QStringLiteral("fundRequestDetail"));
    BackOfficeUi::makeCard(detail);
    m_heading->setObjectName(QStringLiteral("fundHeading"));
    m_heading->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("fundDetailText"));
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_duplicate->setObjectName(QStringLiteral("fundDuplicate"));
    m_duplicate->setWordWrap(true);
    Look::set(m_duplicate, "generalError");
    m_duplicate->hide();
    m_slip->setObjectName(QStringLiteral("fundSlip"));
    m_slip->setAlignment(Qt::AlignCenter);
    m_slip->setMinimumHeight(kSlipSize.height() / 2);
    Look::set(m_slip, "hint");
    m_approve->setObjectName(QStringLiteral("approveFundRequest"));
    m_reject->setObjectName(QStringLiteral("rejectFundRequest"));
    BackOfficeUi::makePrimary(m_approve);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_approve);
    buttons->addWidget(m_reject);
    buttons->addStretch();
    auto *detailColumn = new QVBoxLayout(detail);
    detailColumn->setContentsMargins(16, 12, 16, 12);
    detailColumn->addWidget(m_heading);
    detailColumn->addWidget(m_duplicate);
    detailColumn->addWidget(m_detail);
    detailColumn->addWidget(m_slip, 1);
    detailColumn->addLayout(buttons);

    auto *stateLabel = new QLabel(tr("Sho&w"), this);
    stateLabel->setBuddy(m_state);
    auto *filters = new QHBoxLayout;
    filters->addWidget(stateLabel);
    filters->addWidget(m_state);
    filters->addWidget(refresh);
    filters->addStretch(1);
    auto *left = new QVBoxLayout;
    left->addLayout(filters);
    left->addWidget(BackOfficeUi::hint(tr("What the shops paid you and asked to be credited with. Check the UTR on "
                                          "your bank statement before approving: approving credits the shop's wallet."),
                                       this));
    left->addWidget(m_message);
    left->addWidget(m_table, 1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(left, 1);
    layout->addWidget(BackOfficeUi::sideColumn(detail, kDetailWidth, this)); // scrolls at kiosk fonts
    setTabOrder(m_state, refresh);
    setTabOrder(refresh, m_table);
    setTabOrder(m_table, m_approve);
    setTabOrder(m_approve, m_reject);

    connect(m_state, &QComboBox::currentIndexChanged, this, &FundRequestsPane::refresh);
    connect(refresh, &QPushButton::clicked, this, &FundRequestsPane::refresh);
    connect(m_approve, &QPushButton::clicked, this, &FundRequestsPane::onApprove);
    connect(m_reject, &QPushButton::clicked, this, &FundRequestsPane::onReject);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FundRequestsPane::updateSelection);
    connect(m_model, &CollectionModel::modelReset, this, &FundRequestsPane::updateSelection);
    connect(m_model, &CollectionModel::loaded, this, [this] {
        if (m_keepSelected != 0) {
            for (int row = 0; row < m_model->rowCount(); ++row) {
                if (m_model->item(row).value(QStringLiteral("id")).toInteger() == m_keepSelected) {
                    m_table->setCurrentIndex(m_table->model()->index(row, 0));
                    break;
                }
            }
            m_keepSelected = 0;
        }
        if (!m_table->currentIndex().isValid() && m_model->rowCount() > 0)
            m_table->setCurrentIndex(m_table->model()->index(0, 0));
        if (m_model->rowCount() == 0)
            m_message->setText(tr("No fund request here yet. A shop asks from its own Back office → Wallet → "
                                  "Request top-up…; its request appears here."));
        Look::set(m_message, "hint");
        m_message->setVisible(m_model->rowCount() == 0);
        updateSelection();
    });
    connect(m_model, &CollectionModel::failed, this, [this](const ApiError &error) {
        showError(tr("The fund requests could not be loaded: %1").arg(error.description()));
    });
    updateSelection();
}

QString FundRequestsPane::methodText(const QString &method)
{
    if (method == QLatin1String("upi"))
        return tr("UPI");
    if (method == QLatin1String("bank"))
        return tr("Bank transfer");
    if (method == QLatin1String("cash_deposit"))
        return tr("Cash deposit");
    return method;
}

QString FundRequestsPane::stateText(const QString &state)
{
    if (state == QLatin1String("pending"))
        return tr("Pending");
    if (state == QLatin1String("approved"))
        return tr("Approved");
    if (state == QLatin1String("rejected"))
        return tr("Rejected");
    return state;
}

void FundRequestsPane::refresh()
{
    if (const std::optional<FundRequest> request = selected())
        m_keepSelected = request->id;
    QUrlQuery query;
    if (const QString state = m_state->currentData().toString(); !state.isEmpty())
        query.addQueryItem(QStringLiteral("state"), state);
    m_model->setQuery(query);
    m_model->reload();
}

std::optional<FundRequest> FundRequestsPane::selected() const
{
    return TypedColumn::item<FundRequest>(*m_model, m_table->currentIndex().row());
}

void FundRequestsPane::showError(const QString &text)
{
    m_message->setText(text);
    Look::set(m_message, "generalError");
    m_message->show();
}

void FundRequestsPane::updateSelection()
{
    const std::optional<FundRequest> request = selected();
    const bool pending = request && request->state == QLatin1String("pending");
    m_approve->setEnabled(pending);
    m_reject->setEnabled(pending);
    if (!request) {
        m_heading->setText(tr("No request selected"));
        m_detail->clear();
        m_duplicate->hide();
        m_slip->clear();
        m_slipShown = 0;
        return;
    }
    m_heading->setText(tr("Request %1 · %2 · %3")
                           .arg(QString::number(request->id), request->shopName, Money::formatIndian(request->amount)));
    m_duplicate->setText(tr("DUPLICATE UTR: another request carries UTR %1 too. Check your bank statement before "
                            "approving: one payment must not be credited twice.")
                             .arg(request->utr));
    m_duplicate->setVisible(request->duplicateUtr);
    QStringList lines{tr("Paid by %1 · UTR %2").arg(methodText(request->method), request->utr),
                      tr("Asked %1 (IST)").arg(istText(request->createdAt))};
    if (!request->note.isEmpty())
        lines << tr("Note: “%1”").arg(request->note);
    lines << tr("State: %1").arg(stateText(request->state));
    if (request->decidedAt.isValid())
        lines << tr("Decided %1 by %2").arg(istText(request->decidedAt), BackOfficeUi::actorText(request->decidedBy));
    if (!request->reason.isEmpty())
        lines << tr("Reason: %1").arg(request->reason);
    m_detail->setText(lines.join(QLatin1Char('\n')));
    showSlip(*request);
}

void FundRequestsPane::showSlip(const FundRequest &request)
{
    if (m_slipShown == request.id)
        return;
    m_slipShown = request.id;
    if (m_slipCall)
        m_slipCall->abort();
    m_slip->setPixmap(QPixmap());
    if (!request.hasSlip) {
        m_slip->setText(tr("No slip attached."));
        return;
    }
    m_slip->setText(tr("Loading the slip…"));
    m_slipCall = FundRequestsApi(m_context.api()).slip(request.id);
    connect(m_slipCall, &ApiCall::finished, this, [this](const ApiResult &result) {
        QPixmap image;
        if (!result.ok() || !image.loadFromData(result.body)) {
            m_slip->setText(result.ok() ? tr("The slip is not an image that can be shown.")
                                        : tr("The slip could not be loaded: %1").arg(result.error->description()));
            return;
        }
        m_slip->setPixmap(image.size().boundedTo(kSlipSize) == image.size()
                              ? image
                              : image.scaled(kSlipSize, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    });
}

void FundRequestsPane::onApprove()
{
    const std::optional<FundRequest> request = selected();
    if (!request || request->state != QLatin1String("pending"))
        return;
    const qint64 id = request->id;
    QString text = tr("Credit %1 to %2's wallet for request %3 (%4, UTR %5)?")
                       .arg(Money::formatIndian(request->amount), request->shopName, QString::number(id),
                            methodText(request->method), request->utr);
    if (request->duplicateUtr)
        text += QLatin1Char('\n') + tr("Careful: another request carries the same UTR (DUPLICATE UTR).");
    BackOfficeUi::confirm(this, tr("Approve fund request"), text, tr("&Approve"), [this, id] {
        FundRequestsApi(m_context.api()).approve(id).then(this, [this](const Answer<FundRequest> &answer) {
            if (!answer.ok()) {
                showError(tr("Not approved: %1").arg(answer.error->description()));
                return;
            }
            m_slipShown = 0;
            emit decided(*answer.value);
            refresh();
        });
    });
}

void FundRequestsPane::onReject()
{
    const std::optional<FundRequest> request = selected();
    if (!request || request->state != QLatin1String("pending"))
        return;
    auto *dialog = new ReasonDialog(
        tr("Reject fund request %1").arg(request->id),
        tr("%1 asked for %2 (%3, UTR %4). The shop is told the reason; no money moves.")
            .arg(request->shopName, Money::formatIndian(request->amount), methodText(request->method), request->utr),
        tr("&Reject"), FundRequest::kMaxReason, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ReasonDialog::submitted, this, [this, dialog, id = request->id](const QString &reason) {
        FundRequestsApi(m_context.api()).reject(id, reason).then(dialog, [this, dialog](const Answer<FundRequest> &a) {
            if (!a.ok()) {
                dialog->showError(*a.error);
                return;
            }
            dialog->setBusy(false);
            dialog->accept();
            m_slipShown = 0;
            emit decided(*a.value);
            refresh();
        });
    });
    DialogFocus::openAndRestore(dialog);
}
