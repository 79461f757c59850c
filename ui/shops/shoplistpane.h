#pragma once

#include <QTimer>
#include <QWidget>

class ApiError;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class ShopDetailPane;
class ShopListModel;
class TerminalContext;

/// Back office → Shops → Shops (issue 30): the distributor's shops — a search box (name, owner, mobile, GSTIN; asked of
/// the server as you type), a state filter, the table sorted by the server on a header click (ShopListModel) — with
/// the selected shop in ShopDetailPane beside it, and Add shop… (Alt+D). With no shop yet the table gives way to words
/// on how a shop connects and an Add shop… button. Widgets: "shopSearch", "shopStateFilter", "shopsTable",
/// "addShop", "shopsEmpty", "addFirstShop", "shopsMessage".
class ShopListPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShopListPane)

public:
    explicit ShopListPane(TerminalContext &context, QWidget *parent = nullptr);

    ShopListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    ShopDetailPane *detail() const { return m_detail; }
    /// Loads the list again with the search and filter shown, keeping the selected shop selected.
    void refresh();

private:
    void onLoaded();
    void onFailed(const ApiError &error);
    void onSortIndicatorChanged(int column, Qt::SortOrder order);
    void updateDetail();
    void onAddShop();

    TerminalContext &m_context;
    ShopListModel *m_model;
    QLineEdit *m_search;
    QComboBox *m_state;
    QPushButton *m_add;
    QLabel *m_message;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QWidget *m_empty;
    ShopDetailPane *m_detail;
    QWidget *m_detailColumn; ///< the scroll area around m_detail
    QTimer m_searchDelay;
    qint64 m_keepSelected = 0; ///< the shop to select again after a reload (0: the first row)
    int m_sortColumn = 0;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};
