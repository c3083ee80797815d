defmodule NxRuntime.Tensor do
  @moduledoc """
  A dense row-major tensor: `data` in native byte order, `type` as Nx spells
  it (`{:f, 32}`, `{:s, 64}`, `{:u, 8}`, ...; `{:pred, 8}` for i1, one byte
  per element) and `shape` a tuple of dimensions.
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
  defp encode(v, {:f, bits}) when bits in [16, 32, 64], do: <<v::float-size(bits)-native>>
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

  defp decode(data, {:f, bits} = t, acc) when bits in [16, 32, 64] do
    <<v::float-size(bits)-native, rest::binary>> = data
    decode(rest, t, [v | acc])
  end

  defp decode(<<v, rest::binary>>, {:pred, 8} = t, acc), do: decode(rest, t, [v | acc])

  defp decode(_data, type, _acc),
    do: raise(ArgumentError, "cannot decode elements of type #{inspect(type)}")
end
