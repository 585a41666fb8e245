// Plain-text tables for list commands: columns padded to their widest cell, one row a line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace squawk::ctl {

class Table {
  public:
    explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void print(std::ostream& out) const;

  private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace squawk::ctl
