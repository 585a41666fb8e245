#include "ctl/table.hpp"

#include <algorithm>

namespace squawk::ctl {
namespace {

void print_row(std::ostream& out, const std::vector<std::string>& row,
               const std::vector<size_t>& widths) {
    std::string line;
    for (size_t i = 0; i < widths.size(); ++i) {
        const std::string cell = i < row.size() ? row[i] : "";
        line += cell;
        if (i + 1 < widths.size()) line += std::string(widths[i] - cell.size() + 2, ' ');
    }
    out << line << '\n';
}

}  // namespace

void Table::print(std::ostream& out) const {
    std::vector<size_t> widths(header_.size());
    for (size_t i = 0; i < header_.size(); ++i) widths[i] = header_[i].size();
    for (const auto& row : rows_)
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    print_row(out, header_, widths);
    for (const auto& row : rows_) print_row(out, row, widths);
}

}  // namespace squawk::ctl
