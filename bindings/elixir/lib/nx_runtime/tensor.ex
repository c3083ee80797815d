# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
defmodule NxRuntime.Tensor do
  @moduledoc """
  A dense row-major tensor: `data` in native byte order, `type` as Nx spells
  it (`{:f, 32}`, `{:s, 64}`, `{:u, 8}`, `{:bf, 16}`, `{:c, 64}`, ...;
  `{:pred, 8}` for i1, one byte per element) and `shape` a tuple of
  dimensions.

  Elements, as `new/3` takes them and `to_list/1` gives them back, are as in
  Nx: integers, floats, `:infinity`, `:neg_infinity` and `:nan` for floating
  point types (bf16 rounded to nearest even from f32), and `{re, im}` pairs
  for complex types (a plain number is taken as its real part).
  """
  defstruct [:data, :type, :shape]

  @type t :: %__MODULE__{data: binary, type: {atom, pos_integer}, shape: tuple}

  @doc "A tensor of `type` and `shape` from a flat list of numbers (or one number)."
  def new(values, type, shape \\ nil)

  def new(value, type, shape) when is_number(value), do: new([value], type, shape || {})

  def new(values, type, shape) when is_list(values) do
    shape = shape || {length(values)}

    if Tuple.product(shape) != length(values) do
      raise ArgumentError, "#{length(values)} value(s) do not fill shape #{inspect(shape)}"
    end

    %__MODULE__{data: Enum.map_join(values, &encode(&1, type)), type: type, shape: shape}
  end

  @doc "The elements as a flat list."
  def to_list(%__MODULE__{data: data, type: type}), do: decode(data, type, [])

  @doc "MLIR's spelling of a type and shape, e.g. `tensor<2x3xf32>`."
  def type_string(type, shape) do
    dims = shape |> Tuple.to_list() |> Enum.map_join(&"#{&1}x")
    "tensor<#{dims}#{element_name(type)}>"
  end

  def type_string(%__MODULE__{type: type, shape: shape}), do: type_string(type, shape)

  @doc false
  def to_nif(%__MODULE__{data: data, type: type, shape: shape}), do: {data, type, shape}

  def to_nif(other),
    do: raise(ArgumentError, "expected an NxRuntime.Tensor, got: #{inspect(other)}")

  @doc false
  def from_nif({data, type, shape}), do: %__MODULE__{data: data, type: type, shape: shape}

  defp element_name({:s, bits}), do: "i#{bits}"
  defp element_name({:u, bits}), do: "ui#{bits}"
  defp element_name({:f, bits}), do: "f#{bits}"
  defp element_name({:bf, 16}), do: "bf16"
  defp element_name({:c, 64}), do: "complex<f32>"
  defp element_name({:c, 128}), do: "complex<f64>"
  defp element_name({:pred, 8}), do: "i1"

  defp encode(v, {:s, bits}) when is_integer(v), do: <<v::signed-size(bits)-native>>
  defp encode(v, {:u, bits}) when is_integer(v), do: <<v::unsigned-size(bits)-native>>

  defp encode(v, {:f, bits}) when bits in [16, 32, 64] and is_number(v),
    do: <<v::float-size(bits)-native>>

  defp encode(v, {:bf, 16}) when is_number(v) do
    <<f32::unsigned-32>> = <<v::float-32>>
    # Round to nearest, ties to even, on the 16 bits that are dropped.
    rounded = f32 + 0x7FFF + (Bitwise.bsr(f32, 16) |> Bitwise.band(1))
    <<Bitwise.bsr(rounded, 16)::unsigned-16-native>>
  end

  defp encode(v, {kind, bits}) when kind in [:f, :bf] and v in [:infinity, :neg_infinity, :nan],
    do: <<special(v, {kind, bits})::unsigned-size(bits)-native>>

  defp encode({re, im}, {:c, bits}) when bits in [64, 128] do
    part = {:f, div(bits, 2)}
    encode(re, part) <> encode(im, part)
  end

  defp encode(v, {:c, bits}) when is_number(v), do: encode({v, 0.0}, {:c, bits})
  defp encode(v, {:pred, 8}) when v in [true, 1], do: <<1>>
  defp encode(v, {:pred, 8}) when v in [false, 0], do: <<0>>

  defp encode(v, type),
    do: raise(ArgumentError, "cannot encode #{inspect(v)} as #{inspect(type)}")

  defp decode(<<>>, _type, acc), do: Enum.reverse(acc)

  defp decode(data, {:s, bits} = t, acc) do
    <<v::signed-size(bits)-native, rest::binary>> = data
    decode(rest, t, [v | acc])
  end

  defp decode(data, {:u, bits} = t, acc) do
    <<v::unsigned-size(bits)-native, rest::binary>> = data
    decode(rest, t, [v | acc])
  end

  defp decode(data, {kind, bits} = t, acc) when kind in [:f, :bf] do
    <<element::binary-size(div(bits, 8)), rest::binary>> = data
    decode(rest, t, [float_element(element, t) | acc])
  end

  defp decode(data, {:c, bits} = t, acc) when bits in [64, 128] do
    part = {:f, div(bits, 2)}
    size = div(bits, 16)
    <<re::binary-size(size), im::binary-size(size), rest::binary>> = data
    decode(rest, t, [{float_element(re, part), float_element(im, part)} | acc])
  end

  defp decode(<<v, rest::binary>>, {:pred, 8} = t, acc), do: decode(rest, t, [v | acc])

  defp decode(_data, type, _acc),
    do: raise(ArgumentError, "cannot decode elements of type #{inspect(type)}")

  # One floating point element; infinities and NaNs, which Erlang floats
  # cannot hold, come back as atoms.
  defp float_element(<<v::float-16-native>>, {:f, 16}), do: v
  defp float_element(<<v::float-32-native>>, {:f, 32}), do: v
  defp float_element(<<v::float-64-native>>, {:f, 64}), do: v

  defp float_element(<<h::unsigned-16-native>>, {:bf, 16}) do
    case <<h::unsigned-16, 0::16>> do
      <<v::float-32>> -> v
      _ -> non_finite(h, {:bf, 16})
    end
  end

  defp float_element(element, {:f, bits}) do
    <<u::unsigned-size(bits)-native>> = element
    non_finite(u, {:f, bits})
  end

  # `u`, the bits of a value of `type` whose exponent is all ones.
  defp non_finite(u, {_kind, bits} = type) do
    mantissa = mantissa_bits(type)

    cond do
      Bitwise.band(u, Bitwise.bsl(1, mantissa) - 1) != 0 -> :nan
      Bitwise.bsr(u, bits - 1) == 1 -> :neg_infinity
      true -> :infinity
    end
  end

  # The bit patterns Nx uses for the non-finite atoms (a quiet NaN).
  defp special(v, {_kind, bits} = type) do
    mantissa = mantissa_bits(type)
    exponent = Bitwise.bsl(Bitwise.bsl(1, bits - 1 - mantissa) - 1, mantissa)
    sign = Bitwise.bsl(1, bits - 1)

    case v do
      :infinity -> exponent
      :neg_infinity -> sign + exponent
      :nan -> exponent + Bitwise.bsl(1, mantissa - 1)
    end
  end

  defp mantissa_bits({:f, 16}), do: 10
  defp mantissa_bits({:bf, 16}), do: 7
  defp mantissa_bits({:f, 32}), do: 23
  defp mantissa_bits({:f, 64}), do: 52
end
