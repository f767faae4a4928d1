// Asio and Beast are compiled once, here, instead of in every translation
// unit that includes them (BOOST_*_SEPARATE_COMPILATION).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
