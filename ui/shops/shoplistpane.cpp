#include "shoplistpane.h"

#include "addshopdialog.h"
#include "apierror.h"
#include "backoffice/backofficeui.h"
#include "backoffice/collectionmodel.h"
#include "shopdetailpane.h"
#include "shopkeyreveal.h"
#include "shoplistmodel.h"
#include "terminalcontext.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace {

constexpr int kSearchDelayMs = 300;
constexpr int kDetailWidth = 390;

} // namespace

ShopListPane::ShopListPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_model(new ShopListModel(context.api(), this)),
      m_search(new QLineEdit(this)), m_state(new QComboBox(this)), m_add(new QPushButton(tr("A&dd shop…"), this)),
      m_message(new QLabel(this)), m_stack(new QStackedWidget(this)), m_empty(new QWidget(this)),
      m_detail(new ShopDetailPane(context, this))
{
    setObjectName(QStringLiteral("shopListPane"));
    m_search->setObjectName(QStringLiteral("shopSearch"));
    m_search->setPlaceholderText(tr("Name, owner, mobile or GSTIN"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(160);
    m_search->setMaximumWidth(360);
    m_state->setObjectName(QStringLiteral("shopStateFilter"));
    m_state->addItem(tr("All shops"), QString());
    m_state->addItem(tr("Active"), QStringLiteral("active"));
    m_state->addItem(tr("Suspended"), QStringLiteral("suspended"));
    m_add->setObjectName(QStringLiteral("addShop"));
    m_message->setObjectName(QStringLiteral("shopsMessage"));
    Look::set(m_message, "hint");
    auto *refreshButton = new QPushButton(tr("Refresh (F5)"), this);
    refreshButton->setObjectName(QStringLiteral("refreshShops"));

    m_table = BackOfficeUi::table(m_model, QStringLiteral("shopsTable"), this);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(ShopListModel::Name, Qt::AscendingOrder);
    // The owner is in the detail pane and found by the search: without its column the money columns, the last contact
    // and the state stay in view beside the detail pane at 1366 px with the terminal's navigation.
    m_table->setColumnHidden(ShopListModel::Owner, true);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(ShopListModel::Name, QHeaderView::Stretch);
    const QList<QPair<int, int>> widths{{ShopListModel::Balance, 95},      {ShopListModel::CreditLimit, 90},
                                        {ShopListModel::TodaySales, 100},  {ShopListModel::SuccessRate, 65},
                                        {ShopListModel::LastContact, 100}, {ShopListModel::State, 88}};
    for (const auto &[column, width] : widths)
        header->resizeSection(column, width);

    m_empty->setObjectName(QStringLiteral("shopsEmpty"));
    auto *emptyTitle = BackOfficeUi::heading(tr("No shops yet"), m_empty);
    auto *emptyText = BackOfficeUi::hint(
        tr("A shop is another RechargeDesk that sells through this one. Add it here: it gets its own wallet, which you "
           "top up, and a key. The key's secret is shown once, with the lines the shop runs on its computer to "
           "connect (rechargedesk upstream set). From then on its sales go through you, and you see its balance, "
           "sales and statement here. A shop that has paid you can ask for a top-up: it appears under Fund requests."),
        m_empty);
    emptyText->setMaximumWidth(760);
    auto *addFirst = new QPushButton(tr("&Add shop…"), m_empty);
    addFirst->setObjectName(QStringLiteral("addFirstShop"));
    BackOfficeUi::makePrimary(addFirst);
    auto *emptyColumn = new QVBoxLayout(m_empty);
    emptyColumn->addWidget(emptyTitle);
    emptyColumn->addWidget(emptyText);
    auto *emptyButton = new QHBoxLayout;
    emptyButton->addWidget(addFirst);
    emptyButton->addStretch();
    emptyColumn->addLayout(emptyButton);
    emptyColumn->addStretch();
    m_stack->addWidget(m_table);
    m_stack->addWidget(m_empty);

    auto *searchLabel = new QLabel(tr("Searc&h"), this);
    searchLabel->setBuddy(m_search);
    auto *stateLabel = new QLabel(tr("Sho&w"), this);
    stateLabel->setBuddy(m_state);
    auto *filters = new QHBoxLayout;
    filters->addWidget(searchLabel);
    filters->addWidget(m_search, 1);
    filters->addWidget(stateLabel);
    filters->addWidget(m_state);
    filters->addWidget(refreshButton);
    filters->addStretch(1);
    auto *below = new QHBoxLayout;
    below->addWidget(m_message, 1);
    below->addWidget(m_add);
    auto *left = new QVBoxLayout;
    left->addLayout(filters);
    left->addWidget(m_stack, 1);
    left->addLayout(below);
    // The selected shop scrolls (kiosk fonts) rather than making the page taller than the screen.
    m_detailColumn = BackOfficeUi::sideColumn(m_detail, kDetailWidth, this);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(left, 1);
    layout->addWidget(m_detailColumn);
    setTabOrder(m_search, m_state);
    setTabOrder(m_state, refreshButton);
    setTabOrder(refreshButton, m_table);
    setTabOrder(m_table, m_add);

    m_searchDelay.setSingleShot(true);
    m_searchDelay.setInterval(kSearchDelayMs);
    connect(&m_searchDelay, &QTimer::timeout, this, &ShopListPane::refresh);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchDelay.start(); });
    connect(m_search, &QLineEdit::returnPressed, this, &ShopListPane::refresh);
    connect(m_state, &QComboBox::currentIndexChanged, this, &ShopListPane::refresh);
    connect(refreshButton, &QPushButton::clicked, this, &ShopListPane::refresh);
    connect(m_add, &QPushButton::clicked, this, &ShopListPane::onAddShop);
    connect(addFirst, &QPushButton::clicked, this, &ShopListPane::onAddShop);
    connect(header, &QHeaderView::sortIndicatorChanged, this, &ShopListPane::onSortIndicatorChanged);
    connect(m_model->collection(), &CollectionModel::loaded, this, &ShopListPane::onLoaded);
    connect(m_model->collection(), &CollectionModel::failed, this, &ShopListPane::onFailed);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ShopListPane::updateDetail);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ShopListPane::updateDetail);
    connect(m_detail, &ShopDetailPane::shopChanged, this, [this](const Shop &shop) {
        m_keepSelected = shop.id;
        refresh();
    });
}

void ShopListPane::refresh()
{
    m_searchDelay.stop();
    if (const std::optional<Shop> shown = m_detail->shop(); shown && m_keepSelected == 0)
        m_keepSelected = shown->id;
    m_model->setSearch(m_search->text());
    m_model->setState(m_state->currentData().toString());
    m_model->reload();
}

void ShopListPane::onSortIndicatorChanged(int column, Qt::SortOrder order)
{
    if (ShopListModel::sortKey(column).isEmpty()) {
        // Not a column the server sorts by: the indicator stays where the order is.
        QSignalBlocker blocker(m_table->horizontalHeader());
        m_table->horizontalHeader()->setSortIndicator(m_sortColumn, m_sortOrder);
        m_message->setText(tr("The list cannot be sorted by this column."));
        return;
    }
    m_sortColumn = column;
    m_sortOrder = order;
    if (const std::optional<Shop> shown = m_detail->shop())
        m_keepSelected = shown->id;
    m_model->sort(column, order);
}

void ShopListPane::onLoaded()
{
    const int rows = m_model->rowCount();
    const bool filtered = !m_search->text().trimmed().isEmpty() || !m_state->currentData().toString().isEmpty();
    m_stack->setCurrentWidget(rows == 0 && !filtered ? m_empty : m_table);
    m_detailColumn->setVisible(m_stack->currentWidget() == m_table);
    m_add->setVisible(rows > 0 || filtered);
    const bool more = m_model->collection()->canFetchMore(QModelIndex());
    if (rows == 0)
        m_message->setText(filtered ? tr("No shop matches.") : QString());
    else
        m_message->setText(more        ? tr("%1 shops shown; scroll down for more.").arg(QLocale().toString(rows))
                           : rows == 1 ? tr("1 shop.")
                                       : tr("%1 shops.").arg(QLocale().toString(rows)));
    if (m_keepSelected != 0) {
        // The shop shown before, if it is among the first rows; else the first row.
        const int row = m_model->rowOf(m_keepSelected);
        m_keepSelected = 0;
        if (row >= 0)
            m_table->setCurrentIndex(m_model->index(row, 0));
    }
    if (!m_table->currentIndex().isValid() && rows > 0)
        m_table->setCurrentIndex(m_model->index(0, 0));
    updateDetail();
}

void ShopListPane::onFailed(const ApiError &error)
{
    if (error.reason() == QLatin1String("distributor_only"))
        m_message->setText(tr("This terminal's server account is a shop of a distributor: its shops are kept there."));
    else
        m_message->setText(tr("The shops could not be loaded: %1").arg(error.description()));
}

void ShopListPane::updateDetail()
{
    const QModelIndex current = m_table->currentIndex();
    m_detail->setShop(current.isValid() ? m_model->shop(current.row()) : std::nullopt);
}

void ShopListPane::onAddShop()
{
    auto *dialog = new AddShopDialog(m_context.api(), m_context.catalog(), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AddShopDialog::added, this, [this](const ShopCreated &created) {
        // Once the form has closed and given the focus back: the key's dialog is the one on top.
        QTimer::singleShot(0, this, [this, created] { ShopKeyReveal::open(window(), created.shop.name, created.key); });
        m_keepSelected = created.shop.id;
        // A new shop is found by its name at once, whatever the filter was.
        m_search->blockSignals(true);
        m_search->clear();
        m_search->blockSignals(false);
        m_state->blockSignals(true);
        m_state->setCurrentIndex(0);
        m_state->blockSignals(false);
        refresh();
    });
    DialogFocus::openAndRestore(dialog);
}
