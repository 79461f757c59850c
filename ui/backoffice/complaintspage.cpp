#include "complaintspage.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "complaints/complaintsection.h"
#include "complaints/raisecomplaintdialog.h"
#include "complaints/resolvecomplaintdialog.h"
#include "complaintsapi.h"
#include "money.h"
#include "operatorcatalog.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "widgets/look.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace {

QString istText(const QDateTime &instant)
{
    return instant.isValid() ? IstTime::toIst(instant).toString(QStringLiteral("dd MMM HH:mm")) : QString();
}

QString stateWords(const QString &state)
{
    if (state == QLatin1String("open"))
        return ComplaintsPage::tr("Open");
    if (state == QLatin1String("with_upstream"))
        return ComplaintsPage::tr("With the distributor");
    if (state == QLatin1String("credited"))
        return ComplaintsPage::tr("Credited back");
    if (state == QLatin1String("rejected"))
        return ComplaintsPage::tr("Rejected");
    return state;
}

QList<CollectionColumn> complaintColumns(const OperatorCatalog &catalog)
{
    using TypedColumn::make;
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        make<Complaint>(ComplaintsPage::tr("Complaint"), [](const Complaint &c) { return QString::number(c.id); }),
        make<Complaint>(ComplaintsPage::tr("Sale"),
                        [](const Complaint &c) { return QString::number(c.transactionId); }),
        make<Complaint>(ComplaintsPage::tr("Number"), [](const Complaint &c) { return c.number; }),
        make<Complaint>(ComplaintsPage::tr("Operator"),
                        [&catalog](const Complaint &c) {
                            const OperatorInfo *op = catalog.findOperator(c.operatorCode);
                            return op ? op->name : c.operatorCode;
                        }),
        make<Complaint>(
            ComplaintsPage::tr("Amount"), [](const Complaint &c) { return Money::formatIndian(c.amount); }, right),
        make<Complaint>(ComplaintsPage::tr("Reason"),
                        [](const Complaint &c) { return RaiseComplaintDialog::reasonText(c.reason); }),
        make<Complaint>(ComplaintsPage::tr("State"), [](const Complaint &c) { return stateWords(c.state); }),
        make<Complaint>(ComplaintsPage::tr("Raised (IST)"), [](const Complaint &c) { return istText(c.raisedAt); }),
        make<Complaint>(
            ComplaintsPage::tr("Age"), [](const Complaint &c) { return ComplaintsPage::ageText(c.ageSeconds); }, right),
        make<Complaint>(ComplaintsPage::tr("Deadline (IST)"),
                        [](const Complaint &c) {
                            const QString when = istText(c.deadlineAt);
                            return c.pastDeadline && !c.isResolved()
                                       ? ComplaintsPage::tr("%1 — PAST DEADLINE").arg(when)
                                       : when;
                        }),
    };
}

/// Shades the rows of unresolved complaints past their deadline (their Deadline cell says so in words too).
class DeadlineShading final : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::BackgroundRole) {
            const QJsonObject item =
                QJsonObject::fromVariantMap(QIdentityProxyModel::data(index, CollectionModel::ItemRole).toMap());
            const QString state = item.value(QStringLiteral("state")).toString();
            if (item.value(QStringLiteral("past_deadline")).toBool() && !Complaint::isResolvedState(state))
                return QBrush(QColor(0xfe, 0xe4, 0xe2));
        }
        return QIdentityProxyModel::data(index, role);
    }
};

} // namespace

ComplaintsPage::ComplaintsPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_model(new CollectionModel(context.api(), ComplaintsApi::listPath(),
                                                                       complaintColumns(context.catalog()), 100, this)),
      m_state(new QComboBox(this)), m_error(BackOfficeUi::generalError(this)), m_detail(new QLabel(this)),
      m_resolve(new QPushButton(tr("Resol&ve…"), this))
{
    setObjectName(QStringLiteral("complaintsPage"));
    Look::set(this, "page");
    auto *shading = new DeadlineShading(this);
    shading->setSourceModel(m_model);
    m_table = BackOfficeUi::table(shading, QStringLiteral("complaintsTable"), this);
    m_state->setObjectName(QStringLiteral("complaintStateFilter"));
    m_state->addItem(tr("Not resolved yet"), QStringLiteral("unresolved"));
    m_state->addItem(tr("All"), QString());
    m_state->addItem(tr("Open"), QStringLiteral("open"));
    m_state->addItem(tr("With the distributor"), QStringLiteral("with_upstream"));
    m_state->addItem(tr("Credited back"), QStringLiteral("credited"));
    m_state->addItem(tr("Rejected"), QStringLiteral("rejected"));
    auto *refresh = new QPushButton(tr("Refresh (F5)"), this);
    m_detail->setObjectName(QStringLiteral("complaintDetail"));
    m_detail->setWordWrap(true);
    m_resolve->setObjectName(QStringLiteral("resolveComplaint"));
    m_error->setObjectName(QStringLiteral("complaintsError"));
    int section = 0;
    for (const int width : {90, 70, 110, 90, 90, 120, 150, 120, 80})
        m_table->horizontalHeader()->resizeSection(section++, width);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *filters = new QHBoxLayout;
    auto *stateLabel = new QLabel(tr("&Show"), this);
    stateLabel->setBuddy(m_state);
    filters->addWidget(stateLabel);
    filters->addWidget(m_state);
    filters->addWidget(refresh);
    filters->addStretch(1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_detail, 1);
    actions->addWidget(m_resolve);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::title(tr("Complaints"), this));
    layout->addWidget(BackOfficeUi::hint(
        tr("Customers' complaints about sales: the ones not resolved yet first. Each is due within the shop's "
           "deadline (Settings); one past it is marked PAST DEADLINE."),
        this));
    layout->addLayout(filters);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);
    layout->addLayout(actions);
    setTabOrder(m_state, refresh);
    setTabOrder(refresh, m_table);
    setTabOrder(m_table, m_resolve);

    connect(m_state, &QComboBox::currentIndexChanged, this, &ComplaintsPage::refresh);
    connect(refresh, &QPushButton::clicked, this, &ComplaintsPage::refresh);
    connect(m_resolve, &QPushButton::clicked, this, &ComplaintsPage::onResolveClicked);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ComplaintsPage::updateSelection);
    connect(m_model, &CollectionModel::modelReset, this, &ComplaintsPage::updateSelection);
    connect(m_model, &CollectionModel::loaded, this, [this] {
        m_error->hide();
        if (!m_table->currentIndex().isValid() && m_model->rowCount() > 0)
            m_table->setCurrentIndex(m_table->model()->index(0, 0));
        updateSelection();
    });
    connect(m_model, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_error->setText(tr("The complaints could not be loaded: %1").arg(error.description()));
        m_error->show();
    });
    updateSelection();
}

void ComplaintsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void ComplaintsPage::refresh()
{
    QUrlQuery query;
    if (const QString state = m_state->currentData().toString(); !state.isEmpty())
        query.addQueryItem(QStringLiteral("state"), state);
    m_model->setQuery(query);
    m_model->reload();
}

std::optional<Complaint> ComplaintsPage::selected() const
{
    return TypedColumn::item<Complaint>(*m_model, m_table->currentIndex().row());
}

QString ComplaintsPage::ageText(qint64 seconds)
{
    const qint64 minutes = seconds / 60;
    const qint64 hours = minutes / 60;
    if (hours >= 24)
        return tr("%1 d %2 h").arg(hours / 24).arg(hours % 24);
    if (hours > 0)
        return tr("%1 h %2 min").arg(hours).arg(minutes % 60);
    return tr("%1 min").arg(minutes);
}

void ComplaintsPage::updateSelection()
{
    const std::optional<Complaint> complaint = selected();
    m_detail->setText(complaint
                          ? ComplaintSection::stateText(*complaint) +
                                (complaint->note.isEmpty() ? QString() : QStringLiteral(" — “%1”").arg(complaint->note))
                          : QString());
    // Resolving needs admin authority: the server refuses (403) anyone else, in the dialog.
    m_resolve->setEnabled(complaint && !complaint->isResolved());
}

void ComplaintsPage::onResolveClicked()
{
    const std::optional<Complaint> complaint = selected();
    if (!complaint || complaint->isResolved())
        return;
    auto *dialog = new ResolveComplaintDialog(m_context, *complaint, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ResolveComplaintDialog::resolved, this, [this](const Complaint &resolved) {
        emit complaintResolved(resolved);
        refresh();
    });
    dialog->open();
}
