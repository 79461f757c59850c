#include "marginsdialog.h"

#include "operatorcatalog.h"
#include "shopsapi.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>

namespace {

constexpr int kMaxBasisPoints = 2000; // 20 %, as the server accepts for sale terms

} // namespace

MarginsDialog::MarginsDialog(ApiClient &api, const OperatorCatalog &catalog, const Shop &shop, QWidget *parent)
    : ShopFormDialog(QStringLiteral("marginsDialog"), tr("Margins of %1").arg(shop.name),
                     tr("The discount %1 receives on each sale, per operator.").arg(shop.name), tr("&Save margins"),
                     parent),
      m_api(api), m_shopId(shop.id)
{
    auto *grid = new QWidget(this);
    auto *layout = new QGridLayout(grid);
    layout->setContentsMargins(0, 0, 0, 0);
    const auto header = [&](const QString &text, int column) {
        auto *label = new QLabel(text, grid);
        Look::set(label, "hint");
        layout->addWidget(label, 0, column, column >= 1 ? Qt::AlignRight : Qt::AlignLeft);
    };
    header(tr("Operator"), 0);
    header(tr("Default"), 1);
    header(tr("This shop"), 2);
    int row = 1;
    QWidget *previous = nullptr;
    for (ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
        for (const OperatorInfo &info : catalog.operators(kind)) {
            auto *field = new QDoubleSpinBox(grid);
            field->setObjectName(QStringLiteral("margin_") + info.code);
            field->setRange(0, kMaxBasisPoints / 100.0);
            field->setDecimals(2);
            field->setSingleStep(0.25);
            field->setSuffix(QStringLiteral(" %"));
            field->setAccessibleName(tr("Discount on %1").arg(info.name));
            field->setValue(info.discountBasisPoints / 100.0);
            field->setEnabled(false); // until the shop's rates arrive
            layout->addWidget(new QLabel(info.name, grid), row, 0);
            layout->addWidget(new QLabel(Money::formatRate(info.discountBasisPoints), grid), row, 1, Qt::AlignRight);
            layout->addWidget(field, row, 2);
            m_fields.insert(info.code, field);
            if (previous)
                setTabOrder(previous, field);
            else
                m_first = field;
            previous = field;
            ++row;
        }
    }
    addWideRow(grid);
    QLabel *error = FormErrors::makeLabel(this);
    errors().addField(QStringLiteral("discount_basis_points"), error);
    addWideRow(error);
    actionButton()->setEnabled(false);

    ShopsApi(api).margins(shop.id).then(this, [this](const Answer<ShopMargins> &answer) {
        if (!answer.ok()) {
            errors().showAt(QString(),
                            tr("The shop's margins could not be loaded: %1").arg(answer.error->description()));
            return;
        }
        showRates(answer.value->discountBasisPoints);
        m_loaded = true;
        for (QDoubleSpinBox *field : std::as_const(m_fields))
            field->setEnabled(true);
        actionButton()->setEnabled(true);
        if (m_first)
            m_first->setFocus();
    });
}

void MarginsDialog::showRates(const QMap<QString, int> &basisPoints)
{
    for (auto it = basisPoints.cbegin(); it != basisPoints.cend(); ++it) {
        m_shown.insert(it.key(), it.value());
        if (QDoubleSpinBox *field = m_fields.value(it.key()))
            field->setValue(it.value() / 100.0);
    }
}

void MarginsDialog::submit()
{
    errors().clear();
    QMap<QString, int> changed;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const int now = qRound(it.value()->value() * 100);
        if (!m_shown.contains(it.key()) || m_shown.value(it.key()) != now)
            changed.insert(it.key(), now);
    }
    if (changed.isEmpty()) {
        errors().showAt(QString(), tr("Nothing to save: no rate changed."));
        return;
    }
    setBusy(true);
    ShopsApi(m_api).setMargins(m_shopId, changed).then(this, [this](const Answer<ShopMargins> &answer) {
        if (!answer.ok()) {
            showRefusal(*answer.error);
            return;
        }
        setBusy(false);
        emit saved(answer.value->discountBasisPoints);
        accept();
    });
}
